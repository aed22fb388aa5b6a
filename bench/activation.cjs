// Activation probe: loads the bundled dist/extension.js in this fresh Node process with a stubbed `vscode` module
// and calls activate(). Prints one JSON line: { loadMs, activateMs, totalMs, commands, subscriptions } or { error }.
// Plain CommonJS on purpose: no tsx loader hooks in the timed require.
//
// The stub implements the members activation is known to touch (commands, window.createTreeView, languages,
// workspace, EventEmitter, Disposable, Uri, …) and falls back to a Proxy that answers any other member with a
// callable no-op returning a disposable, so the probe keeps working while the extension grows.
"use strict";
const Module = require("node:module");
const path = require("node:path");

const extensionFile = path.resolve(process.argv[2] || path.join(__dirname, "..", "dist", "extension.js"));

function disposable() {
  return { dispose() {} };
}

/** Any unknown member: a callable that returns another stub, with dispose(), never thenable. */
function deepStub(name) {
  const cache = new Map();
  const target = function () {};
  return new Proxy(target, {
    get(_t, prop) {
      if (prop === "then") return undefined;
      if (prop === "dispose") return () => {};
      if (prop === Symbol.toPrimitive) return () => `[stub ${name}]`;
      if (prop === Symbol.iterator) return function* () {};
      if (prop === "toString" || prop === "toJSON") return () => `[stub ${name}]`;
      if (typeof prop === "symbol") return undefined;
      if (!cache.has(prop)) cache.set(prop, deepStub(`${name}.${String(prop)}`));
      return cache.get(prop);
    },
    apply() {
      return deepStub(`${name}()`);
    },
    construct() {
      return deepStub(`new ${name}`);
    },
  });
}

/** An object with the given members; anything else comes from deepStub. */
function withFallback(name, members) {
  const fallback = deepStub(name);
  return new Proxy(members, {
    get(t, prop) {
      if (prop in t) return t[prop];
      if (prop === "then") return undefined;
      return fallback[prop];
    },
  });
}

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    this.event = (listener, thisArg) => {
      const fn = thisArg ? listener.bind(thisArg) : listener;
      this.listeners.add(fn);
      return { dispose: () => this.listeners.delete(fn) };
    };
  }
  fire(value) {
    for (const l of [...this.listeners]) l(value);
  }
  dispose() {
    this.listeners.clear();
  }
}

class Disposable {
  constructor(fn) {
    this.fn = fn;
  }
  static from(...items) {
    return new Disposable(() => items.forEach((d) => d && d.dispose && d.dispose()));
  }
  dispose() {
    if (this.fn) this.fn();
    this.fn = undefined;
  }
}

class Uri {
  constructor(scheme, authority, p, query, fragment) {
    this.scheme = scheme;
    this.authority = authority || "";
    this.path = p || "";
    this.query = query || "";
    this.fragment = fragment || "";
  }
  get fsPath() {
    return this.path;
  }
  static file(p) {
    return new Uri("file", "", p);
  }
  static parse(s) {
    const m = /^([a-z][\w+.-]*):(?:\/\/([^/]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/i.exec(s);
    return m ? new Uri(m[1], m[2], m[3], m[4], m[5]) : new Uri("file", "", s);
  }
  static from(c) {
    return new Uri(c.scheme, c.authority, c.path, c.query, c.fragment);
  }
  static joinPath(base, ...parts) {
    return new Uri(base.scheme, base.authority, path.posix.join(base.path, ...parts), base.query, base.fragment);
  }
  with(change) {
    return new Uri(change.scheme ?? this.scheme, change.authority ?? this.authority, change.path ?? this.path, change.query ?? this.query, change.fragment ?? this.fragment);
  }
  toString() {
    return `${this.scheme}://${this.authority}${this.path}${this.query ? `?${this.query}` : ""}${this.fragment ? `#${this.fragment}` : ""}`;
  }
  toJSON() {
    return this.toString();
  }
}

class Position {
  constructor(line, character) {
    this.line = line;
    this.character = character;
  }
}
class Range {
  constructor(a, b, c, d) {
    if (typeof a === "number") {
      this.start = new Position(a, b);
      this.end = new Position(c, d);
    } else {
      this.start = a;
      this.end = b;
    }
  }
}
class Selection extends Range {}
const simpleClass = (name) =>
  ({
    [name]: class {
      constructor(...args) {
        this.args = args;
      }
    },
  })[name];

class TreeItem {
  constructor(label, collapsibleState) {
    this.label = label;
    this.collapsibleState = collapsibleState;
  }
}
class ThemeIcon {
  constructor(id, color) {
    this.id = id;
    this.color = color;
  }
}
ThemeIcon.File = new ThemeIcon("file");
ThemeIcon.Folder = new ThemeIcon("folder");
class MarkdownString {
  constructor(value = "") {
    this.value = value;
  }
  appendMarkdown(s) {
    this.value += s;
    return this;
  }
  appendText(s) {
    this.value += s;
    return this;
  }
  appendCodeblock(s) {
    this.value += s;
    return this;
  }
}
class CodeLens {
  constructor(range, command) {
    this.range = range;
    this.command = command;
  }
}

const registered = [];
const outputChannel = () =>
  withFallback("outputChannel", {
    name: "Deliberative Search",
    append() {},
    appendLine() {},
    replace() {},
    clear() {},
    show() {},
    hide() {},
    dispose() {},
    trace() {},
    debug() {},
    info() {},
    warn() {},
    error() {},
    logLevel: 2,
    onDidChangeLogLevel: () => disposable(),
  });

const configuration = () =>
  withFallback("configuration", {
    get: (_key, dflt) => dflt,
    has: () => false,
    inspect: () => undefined,
    update: async () => {},
  });

const watcher = () =>
  withFallback("watcher", {
    onDidCreate: () => disposable(),
    onDidChange: () => disposable(),
    onDidDelete: () => disposable(),
    dispose() {},
  });

const vscode = withFallback("vscode", {
  version: "1.100.0",
  EventEmitter,
  Disposable,
  Uri,
  Position,
  Range,
  Selection,
  TreeItem,
  ThemeIcon,
  ThemeColor: simpleClass("ThemeColor"),
  MarkdownString,
  CodeLens,
  RelativePattern: simpleClass("RelativePattern"),
  CancellationTokenSource: class {
    constructor() {
      this.token = { isCancellationRequested: false, onCancellationRequested: () => disposable() };
    }
    cancel() {
      this.token.isCancellationRequested = true;
    }
    dispose() {}
  },
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2, Three: 3 },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  TextEditorRevealType: { Default: 0, InCenter: 1, InCenterIfOutsideViewport: 2, AtTop: 3 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
  ExtensionMode: { Production: 1, Development: 2, Test: 3 },
  FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
  commands: withFallback("commands", {
    registerCommand: (id) => {
      registered.push(id);
      return disposable();
    },
    executeCommand: async () => undefined,
    getCommands: async () => registered.slice(),
  }),
  window: withFallback("window", {
    createTreeView: () => withFallback("treeView", { dispose() {}, onDidChangeVisibility: () => disposable(), onDidChangeSelection: () => disposable(), visible: true, reveal: async () => {} }),
    registerTreeDataProvider: () => disposable(),
    registerWebviewPanelSerializer: () => disposable(),
    registerWebviewViewProvider: () => disposable(),
    createOutputChannel: () => outputChannel(),
    createStatusBarItem: () => withFallback("statusBarItem", { show() {}, hide() {}, dispose() {} }),
    showInformationMessage: async () => undefined,
    showWarningMessage: async () => undefined,
    showErrorMessage: async () => undefined,
    setStatusBarMessage: () => disposable(),
    onDidChangeActiveTextEditor: () => disposable(),
    onDidChangeVisibleTextEditors: () => disposable(),
    onDidChangeTextEditorSelection: () => disposable(),
    activeTextEditor: undefined,
    visibleTextEditors: [],
  }),
  languages: withFallback("languages", {
    registerCodeLensProvider: () => disposable(),
    registerHoverProvider: () => disposable(),
    setTextDocumentLanguage: async (d) => d,
  }),
  workspace: withFallback("workspace", {
    workspaceFolders: [{ uri: Uri.file(process.cwd()), name: "bench", index: 0 }],
    isTrusted: true,
    getConfiguration: () => configuration(),
    onDidChangeConfiguration: () => disposable(),
    onDidChangeWorkspaceFolders: () => disposable(),
    onDidGrantWorkspaceTrust: () => disposable(),
    onDidSaveTextDocument: () => disposable(),
    onDidChangeTextDocument: () => disposable(),
    onDidOpenTextDocument: () => disposable(),
    onDidCloseTextDocument: () => disposable(),
    createFileSystemWatcher: () => watcher(),
    registerTextDocumentContentProvider: () => disposable(),
    getWorkspaceFolder: () => undefined,
    textDocuments: [],
  }),
  env: withFallback("env", { appName: "Visual Studio Code", language: "en", clipboard: { writeText: async () => {}, readText: async () => "" }, openExternal: async () => true }),
  extensions: withFallback("extensions", { getExtension: () => undefined, all: [] }),
  // The agent entry points: the language-model tool, the chat participant and the MCP server definition provider.
  lm: withFallback("lm", { tools: [], registerTool: () => disposable(), registerMcpServerDefinitionProvider: () => disposable() }),
  chat: withFallback("chat", { createChatParticipant: () => withFallback("participant", { dispose() {} }) }),
  McpStdioServerDefinition: simpleClass("McpStdioServerDefinition"),
});

function memento() {
  const m = new Map();
  return { get: (k, d) => (m.has(k) ? m.get(k) : d), update: async (k, v) => void m.set(k, v), keys: () => [...m.keys()], setKeysForSync() {} };
}

const root = path.dirname(path.dirname(extensionFile));
const context = withFallback("context", {
  subscriptions: [],
  extensionUri: Uri.file(root),
  extensionPath: root,
  asAbsolutePath: (p) => path.join(root, p),
  storageUri: Uri.file(path.join(require("node:os").tmpdir(), "delib-bench-storage")),
  globalStorageUri: Uri.file(path.join(require("node:os").tmpdir(), "delib-bench-global")),
  logUri: Uri.file(path.join(require("node:os").tmpdir(), "delib-bench-log")),
  extensionMode: 1,
  globalState: memento(),
  workspaceState: memento(),
  secrets: { get: async () => undefined, store: async () => {}, delete: async () => {}, onDidChange: () => disposable() },
  environmentVariableCollection: deepStub("environmentVariableCollection"),
  extension: { id: "deliberative-search.deliberative-search", packageJSON: {} },
});

// Route `require("vscode")` to the stub.
const STUB_ID = "\0vscode-stub";
const originalResolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === "vscode") return STUB_ID;
  return originalResolve.call(this, request, ...rest);
};
const stubModule = new Module(STUB_ID);
stubModule.exports = vscode;
stubModule.loaded = true;
require.cache[STUB_ID] = stubModule;

(async () => {
  try {
    const t0 = performance.now();
    const ext = require(extensionFile);
    const t1 = performance.now();
    const api = ext.activate(context);
    if (api && typeof api.then === "function") await api;
    const t2 = performance.now();
    process.stdout.write(
      JSON.stringify({
        loadMs: round(t1 - t0),
        activateMs: round(t2 - t1),
        totalMs: round(t2 - t0),
        commands: registered.length,
        subscriptions: context.subscriptions.length,
      }) + "\n",
    );
    for (const d of context.subscriptions) {
      try {
        d && d.dispose && d.dispose();
      } catch {
        /* ignore */
      }
    }
    if (typeof ext.deactivate === "function") ext.deactivate();
  } catch (err) {
    process.stdout.write(JSON.stringify({ error: String((err && err.stack) || err).split("\n").slice(0, 4).join(" | ") }) + "\n");
  }
  // Timers the extension may have started (debounces, watchers) must not keep the probe alive.
  process.exit(0);
})();

function round(n) {
  return Math.round(n * 100) / 100;
}
