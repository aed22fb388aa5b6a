// A stand-in for the `vscode` module, so extension-host code runs under plain Node in the unit tests. Importing this
// file first makes every later `require("vscode")` resolve to it. It models only what the tested modules touch,
// and records what they register (diagnostics, status items, commands, providers) for the tests to read.
import Module from "node:module";
import { join } from "node:path";

type ModuleWithResolve = typeof Module & { _resolveFilename(request: string, ...rest: unknown[]): string };
const M = Module as ModuleWithResolve;
const resolveFilename = M._resolveFilename;
M._resolveFilename = function (request: string, ...rest: unknown[]): string {
  return request === "vscode" ? __filename : resolveFilename.call(this, request, ...rest);
};

type Listener<T> = (e: T) => unknown;

export class Disposable {
  constructor(private readonly fn: () => void = () => {}) {}
  dispose(): void {
    this.fn();
  }
}

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  disposed = false;
  readonly event = (l: Listener<T>): Disposable => {
    this.listeners.push(l);
    return new Disposable(() => (this.listeners = this.listeners.filter((x) => x !== l)));
  };
  fire(e: T): void {
    for (const l of this.listeners) l(e);
  }
  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly fsPath: string,
  ) {}
  static file(path: string): Uri {
    return new Uri("file", path);
  }
  static parse(text: string): Uri {
    return text.startsWith("file://") ? new Uri("file", decodeURIComponent(text.slice("file://".length))) : new Uri(text.split(":")[0] ?? "", text);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, join(base.fsPath, ...parts));
  }
  get path(): string {
    return this.fsPath;
  }
  toString(): string {
    return `${this.scheme}://${encodeURI(this.fsPath)}`;
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(startLine: number, startChar: number, endLine: number, endChar: number) {
    this.start = new Position(startLine, startChar);
    this.end = new Position(endLine, endChar);
  }
}

export class Location {
  constructor(
    readonly uri: Uri,
    readonly range: Range,
  ) {}
}

export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}

export class Diagnostic {
  source?: string;
  code?: string | number;
  relatedInformation?: DiagnosticRelatedInformation[];
  constructor(
    readonly range: Range,
    readonly message: string,
    readonly severity: DiagnosticSeverity,
  ) {}
}

export class DiagnosticRelatedInformation {
  constructor(
    readonly location: Location,
    readonly message: string,
  ) {}
}

export class MarkdownString {
  isTrusted?: boolean | { enabledCommands: string[] };
  constructor(readonly value: string) {}
}

export class Hover {
  constructor(readonly contents: MarkdownString) {}
}

export class CodeActionKind {
  static readonly QuickFix = new CodeActionKind("quickfix");
  constructor(readonly value: string) {}
}

export class CodeAction {
  command?: { command: string; title: string; arguments?: unknown[] };
  diagnostics?: Diagnostic[];
  constructor(
    readonly title: string,
    readonly kind: CodeActionKind,
  ) {}
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export class StatusBarItem {
  name?: string;
  text = "";
  tooltip?: string;
  command?: string;
  visible = false;
  constructor(readonly id: string) {}
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.visible = false;
  }
}

export interface WorkspaceFolder {
  uri: Uri;
  name: string;
  index: number;
}

/** What the code under test registered, and the knobs a test turns. */
export const stub = {
  diagnostics: new Map<string, Diagnostic[]>(),
  statusItems: [] as StatusBarItem[],
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  warnings: [] as string[],
  /** Settings by full key ("deliberativeSearch.guard.enabled"); absent keys read as undefined (the defaults). */
  settings: new Map<string, unknown>(),
  reset(): void {
    this.diagnostics.clear();
    this.statusItems.length = 0;
    this.commands.clear();
    this.warnings.length = 0;
    this.settings.clear();
    workspace.workspaceFolders = [];
    workspace.isTrusted = true;
  },
};

export const version = "1.100.3";

export const languages = {
  createDiagnosticCollection(_name: string) {
    return {
      set(uri: Uri, diagnostics: Diagnostic[]) {
        stub.diagnostics.set(uri.fsPath, diagnostics);
      },
      delete(uri: Uri) {
        stub.diagnostics.delete(uri.fsPath);
      },
      dispose() {},
    };
  },
  registerHoverProvider: () => new Disposable(),
  registerCodeActionsProvider: () => new Disposable(),
};

const never = () => new Disposable();

export const workspace = {
  isTrusted: true,
  workspaceFolders: [] as WorkspaceFolder[],
  getWorkspaceFolder(uri: Uri): WorkspaceFolder | undefined {
    return workspace.workspaceFolders.find((f) => uri.fsPath === f.uri.fsPath || uri.fsPath.startsWith(`${f.uri.fsPath}/`));
  },
  asRelativePath(uri: Uri): string {
    const folder = workspace.getWorkspaceFolder(uri);
    return folder ? uri.fsPath.slice(folder.uri.fsPath.length + 1) : uri.fsPath;
  },
  getConfiguration(section: string) {
    return {
      get: (key: string) => stub.settings.get(`${section}.${key}`),
      inspect: (key: string) => ({ globalValue: stub.settings.get(`${section}.${key}`) }),
    };
  },
  onDidSaveTextDocument: never,
  onDidGrantWorkspaceTrust: never,
  onDidChangeWorkspaceFolders: never,
  onDidChangeConfiguration: never,
};

export const window = {
  createStatusBarItem(id: string) {
    const item = new StatusBarItem(id);
    stub.statusItems.push(item);
    return item;
  },
  showWarningMessage(message: string) {
    stub.warnings.push(message);
    return Promise.resolve(undefined);
  },
};

export const commands = {
  registerCommand(id: string, handler: (...args: unknown[]) => unknown) {
    stub.commands.set(id, handler);
    return new Disposable(() => stub.commands.delete(id));
  },
};

/** `vscode.lm` as VS Code 1.100 has it: the MCP provider API exists, under a contribution point of its own. */
export const lm: Record<string, unknown> = {};

export class McpStdioServerDefinition {
  cwd?: Uri;
  constructor(
    readonly label: string,
    readonly command: string,
    readonly args?: string[],
  ) {}
}
