// The API VS Code injects into a webview (acquireVsCodeApi may be called once).
interface VsCodeWebviewApi<State> {
  postMessage(message: unknown): void;
  getState(): State | undefined;
  setState(state: State): State;
}
declare function acquireVsCodeApi<State = unknown>(): VsCodeWebviewApi<State>;
