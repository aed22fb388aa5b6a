// The guard on readings dev15 showed it missed or misread on repositories it was never tuned on (issue 22): Cabal
// manifests and Haskell imports, rivals a context names as "other such libraries, e.g. …", a decision step that
// drops components by name or uses a linked thing, "X in favour of Y", an option read as its label only, its
// example implementation, "was considered and rejected", a turned-down module beside its deeper path, and Python API
// frameworks as peers, and a new file that reserves its rights where contributions are public domain. Records written for these tests, each with an innocent look-alike.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createGitRepo } from "../helpers/gitRepo";
import { checkFilesOverHead, findingSummary } from "../helpers/guardRepo";
import { droppedComponents } from "../../src/core/guard/decisions";
import { reservedRightsLine, takesOpenContributions } from "../../src/core/guard/fileHeaders";
import { dependencyOf, fileKind, importOf } from "../../src/core/guard/lines";
import { imageBrandOf } from "../../src/core/guard/match";
import { labelledName } from "../../src/core/guard/optionLines";
import { parseAdr } from "../../src/core/internal/adr";

const nygard = (title: string, context: string, decision: string) => `# ${title}\n\n## Status\n\nAccepted\n\n## Context\n\n${context}\n\n## Decision\n\n${decision}\n\n## Consequences\n\nNone yet.\n`;

const CABAL = "cabal-version: 3.0\nname: widget-node\n\nlibrary\n  hs-source-dirs: src\n  default-extensions:\n    NoImplicitPrelude\n  build-depends:\n    , base\n    , widget-prelude\n    , stm-free >=0.3\n";

describe("guard: Cabal manifests and Haskell imports", () => {
  test("a build-depends entry names its package; extensions, fields and section headers do not", () => {
    assert.equal(fileKind("widget-node/widget-node.cabal"), "manifest");
    assert.equal(dependencyOf("w.cabal", "    , lens-extra            >=0.3"), "lens-extra");
    // A sub-library is part of its package: the dependency is on the package.
    assert.equal(dependencyOf("w.cabal", "    , io-thing:strict-part"), "io-thing");
    assert.equal(dependencyOf("w.cabal", "  build-depends: base >=4 && <5"), "base");
    assert.equal(dependencyOf("w.cabal", "    aeson-lite >=2,"), "aeson-lite");
    assert.equal(dependencyOf("w.cabal", "    NoImplicitPrelude"), undefined);
    assert.equal(dependencyOf("w.cabal", "  main-is: Main.hs"), undefined);
    assert.equal(dependencyOf("w.cabal", "library"), undefined);
  });

  test("a Haskell import names its module, qualified or not", () => {
    assert.equal(importOf("src/A.hs", "import qualified Data.Widget.Map as Map"), "Data.Widget.Map");
    assert.equal(importOf("src/A.hs", "import Widget.Prelude"), "Widget.Prelude");
    assert.equal(importOf("src/A.hs", "import \"widget-base\" Widget.Core (run)"), "Widget.Core");
    assert.equal(importOf("src/A.hs", "-- import Widget.Gone"), undefined);
  });
});

describe("guard: rivals the context names as examples of other such libraries", () => {
  const record = nygard(
    "Use effect-classes",
    "Concurrent code is hard to test. There are other such libraries, e.g. [spinlab](https://example.test/spinlab) and [racecheck](https://example.test/racecheck), that abstract the primitives.",
    "Use the typeclasses exposed by [effect-classes](https://example.test/ec) for every effect.",
  );

  test("a rival added to a Cabal manifest is turned down; the chosen library and an unnamed one are not", async () => {
    const r = createGitRepo([{ message: "init", files: { "docs/adr/0005-use-effect-classes.md": record, "widget-node/widget-node.cabal": CABAL } }]);
    const rival = await checkFilesOverHead(r, { "widget-node/widget-node.cabal": CABAL.replace("    , base\n", "    , base\n    , racecheck\n") });
    assert.ok(findingSummary(rival).includes("introduces-rejected-option docs/adr/0005-use-effect-classes.md"), JSON.stringify(rival.findings));
    const chosen = await checkFilesOverHead(r, { "widget-node/widget-node.cabal": CABAL.replace("    , base\n", "    , base\n    , effect-classes\n    , vector-plus\n") });
    assert.deepEqual(findingSummary(chosen), []);
  });

  test("names merely listed as examples of a kind, with no 'other', are no rivals", async () => {
    const plain = nygard("Use effect-classes", "Libraries such as [spinlab](https://example.test/spinlab) help here.", "Use the typeclasses exposed by [effect-classes](https://example.test/ec).");
    const r = createGitRepo([{ message: "init", files: { "docs/adr/0005-use-effect-classes.md": plain, "widget-node/widget-node.cabal": CABAL } }]);
    const added = await checkFilesOverHead(r, { "widget-node/widget-node.cabal": CABAL.replace("    , base\n", "    , base\n    , spinlab\n") });
    assert.deepEqual(findingSummary(added), []);
  });
});

describe("guard: decision steps that drop components or use a linked thing", () => {
  const record = nygard(
    "Broadcast through quorumd",
    "Our own transport lost messages under load.",
    "- Use [`quorumd`](https://example.test/quorumd) as a proxy to reach agreement on every message\n- We supersede the earlier transport decisions:\n  - Drop existing implementation of `Tunnelwire` and `Resender` components\n  - Keep `Heartbeat` as it is",
  );

  test("only list items that open with the removal name dropped components, and only in code spans", () => {
    const out = droppedComponents(parseAdr("docs/adr/0032-quorumd.md", record));
    assert.deepEqual(
      out.map((o) => [o.name, !!o.pathOnly]),
      [
        ["Tunnelwire", true],
        ["Resender", true],
      ],
    );
  });

  test("a new module named for a dropped component brings it back; a module of another name does not", async () => {
    const r = createGitRepo([{ message: "init", files: { "docs/adr/0032-quorumd.md": record, "node/node.cabal": CABAL.replace("    , base\n", "    , base\n    , quorumd-client\n") } }]);
    const back = await checkFilesOverHead(r, { "node/src/Widget/Network/Resender.hs": "module Widget.Network.Resender where\n\nimport Widget.Prelude\n" });
    assert.ok(findingSummary(back).includes("introduces-rejected-option docs/adr/0032-quorumd.md"), JSON.stringify(back.findings));
    const other = await checkFilesOverHead(r, { "node/src/Widget/Network/Signer.hs": "module Widget.Network.Signer where\n\nimport Widget.Prelude\n" });
    assert.deepEqual(findingSummary(other), []);
  });

  test("dropping the linked thing's binding removes the chosen option; raising its bound does not", async () => {
    const manifest = CABAL.replace("    , base\n", "    , base\n    , quorumd-client >=0.3\n");
    const r = createGitRepo([{ message: "init", files: { "docs/adr/0032-quorumd.md": record, "node/node.cabal": manifest } }]);
    const dropped = await checkFilesOverHead(r, { "node/node.cabal": manifest.replace("    , quorumd-client >=0.3\n", "") });
    assert.ok(findingSummary(dropped).includes("removes-chosen-option docs/adr/0032-quorumd.md"), JSON.stringify(dropped.findings));
    const bumped = await checkFilesOverHead(r, { "node/node.cabal": manifest.replace("quorumd-client >=0.3", "quorumd-client >=0.4") });
    assert.deepEqual(findingSummary(bumped), []);
  });
});

describe("guard: 'X in favour of Y' and 'was considered and rejected'", () => {
  test("the library set aside in favour of another is turned down in imports; the favoured one is kept", async () => {
    const record = nygard("Custom prelude", "The base prelude is awkward.", "We wrap a prelude of our own, and hide the [`txvars`](https://example.test/txvars) library in favor of [`effect-classes`](https://example.test/ec) which we already use.");
    const r = createGitRepo([{ message: "init", files: { "docs/adr/0008-custom-prelude.md": record, "README.md": "# Node\n" } }]);
    const direct = await checkFilesOverHead(r, { "src/Counter.hs": "module Counter where\n\nimport Control.Txvars (newVar)\n" });
    assert.ok(findingSummary(direct).includes("introduces-rejected-option docs/adr/0008-custom-prelude.md"), JSON.stringify(direct.findings));
    const favoured = await checkFilesOverHead(r, { "src/Counter.hs": "module Counter where\n\nimport Control.EffectClasses (newVar)\n" });
    assert.deepEqual(findingSummary(favoured), []);
    // The word as a piece of another library's class name (`MonadTxvars`) is not the set-aside library.
    const classed = await checkFilesOverHead(r, { "src/Counter.hs": "module Counter where\n\nimport Control.Effect.Class.MonadTxvars (newVar)\n" });
    assert.deepEqual(findingSummary(classed), []);
  });

  test("a name 'considered and rejected' in the context is turned down", async () => {
    const record = nygard("Binary frames for the API", "- Frames are large.\n- Wirepack was considered and rejected: it would replace the socket API.", "Messages get hand-written binary codecs.");
    const r = createGitRepo([{ message: "init", files: { "docs/adr/0034-binary-frames.md": record, "package.json": '{\n  "name": "api",\n  "dependencies": {\n    "left-pad": "1.0.0"\n  }\n}\n' } }]);
    const added = await checkFilesOverHead(r, { "package.json": '{\n  "name": "api",\n  "dependencies": {\n    "left-pad": "1.0.0",\n    "wirepack": "2.1.0"\n  }\n}\n' });
    assert.ok(findingSummary(added).includes("introduces-rejected-option docs/adr/0034-binary-frames.md"), JSON.stringify(added.findings));
  });
});

describe("guard: an option read as its label, and the implementation its body gives as the example", () => {
  test("the name after the label's colon replaces a label-only name; other names are kept", () => {
    assert.equal(labelledName("Option B (alternative, non-preferred option)", "### **Option B (alternative, non-preferred option): Run a central service**"), "Run a central service");
    assert.equal(labelledName("Option A", "## Option A"), "Option A");
    assert.equal(labelledName("Publish a library", "### **Option A (preferred): Publish a library**"), "Publish a library");
  });

  test("a service named as the example of a turned-down option is turned down by all its words, not its vendor alone", async () => {
    const rfc = [
      "- Start Date: 2024-01-01",
      "- RFC Status: approved",
      "",
      "# Summary",
      "",
      "Central schemas for the event topics.",
      "",
      "# Options Considered",
      "",
      "### **Option A (preferred): Publish a library**",
      "",
      "Schemas ship as a package for each language.",
      "",
      "### **Option B (alternative, non-preferred option): Run a central service**",
      "",
      "Clients fetch schemas from a service. We could deploy an existing open source implementation such as Glimmer schema registry.",
      "",
      "# Drawbacks",
      "",
      "Versioning takes care.",
      "",
    ].join("\n");
    const r = createGitRepo([{ message: "init", files: { "text/0072-event-schemas.md": rfc, "README.md": "# Events\n" } }]);
    const registry = await checkFilesOverHead(r, { "src/consumers/decode.py": "from glimmer_client.schema_registry import RegistryClient\n\nclient = RegistryClient({})\n" });
    assert.ok(findingSummary(registry).includes("introduces-rejected-option text/0072-event-schemas.md"), JSON.stringify(registry.findings));
    const vendor = await checkFilesOverHead(r, { "src/consumers/plain.py": "from glimmer_client import Consumer\n\nconsumer = Consumer({})\n" });
    assert.deepEqual(findingSummary(vendor), []);
  });
});

describe("guard: a container image's namespace names its vendor", () => {
  test("a namespace with an organisation's suffix gives the brand; a plain one or a registry host does not", () => {
    assert.equal(imageBrandOf("glimmerinc/cp-schema-registry:7.5.0"), "glimmer");
    assert.equal(imageBrandOf("registry.example.test/acmehq/tool:1"), "acme");
    assert.equal(imageBrandOf("bitnami/redis:7"), undefined);
    assert.equal(imageBrandOf("redis:7"), undefined);
  });
});

describe("guard: a turned-down module beside its deeper path", () => {
  test("importing through the module is turned down; importing from its submodule, as the record asks, is not", async () => {
    const rfc = nygard("Import models from their declaring module", "Mass re-exports hide where a model lives.", "- Prefer `shop.records.order` over `shop.records` for imports of the order model.");
    const r = createGitRepo([{ message: "init", files: { "docs/adr/0004-import-reorg.md": rfc, "README.md": "# Shop\n" } }]);
    const reexport = await checkFilesOverHead(r, { "src/shop/tasks/cleanup.py": "from shop.records import Order\n\n\ndef run():\n    return Order\n" });
    assert.ok(findingSummary(reexport).includes("introduces-rejected-option docs/adr/0004-import-reorg.md"), JSON.stringify(reexport.findings));
    const declaring = await checkFilesOverHead(r, { "src/shop/tasks/cleanup.py": "from shop.records.order import Order\n\n\ndef run():\n    return Order\n" });
    assert.deepEqual(findingSummary(declaring), []);
  });
});

describe("guard: Python API frameworks as peers", () => {
  test("a record that builds its API with Django REST framework turns another API framework down; its own add-on is fine", async () => {
    const record = nygard("Use Django REST framework for the API", "How will we build the API?", "**We will use [Django REST framework](https://example.test/drf) to implement the API**");
    const reqs = "django==5.0\ndjangorestframework==3.15.2\n";
    const r = createGitRepo([{ message: "init", files: { "docs/adr/0004-use-drf.md": record, "requirements.in": reqs } }]);
    const rival = await checkFilesOverHead(r, { "requirements.in": `${reqs}fastapi==0.110.0\n` });
    assert.ok(findingSummary(rival).includes("introduces-rejected-option docs/adr/0004-use-drf.md"), JSON.stringify(rival.findings));
    const addon = await checkFilesOverHead(r, { "requirements.in": `${reqs}drf-spectacular==0.27.2\n` });
    assert.deepEqual(findingSummary(addon), []);
  });
});

describe("guard: a new file that reserves its rights where contributions are open", () => {
  test("an open contribution licence or a public-domain dedication is read; a code of conduct is not", () => {
    assert.equal(takesOpenContributions("All contributions to this project will be released under the CC0 dedication."), true);
    assert.equal(takesOpenContributions("Contributions are licensed under the Apache License 2.0."), true);
    assert.equal(takesOpenContributions("Contributors should follow the code of conduct."), false);
  });

  test("the header line that reserves rights is found; 'no rights reserved' and a plain file are not", () => {
    assert.equal(reservedRightsLine([{ line: 1, text: "# Copyright 2026 Widget Ltd. All rights reserved." }])?.line, 1);
    assert.equal(reservedRightsLine([{ line: 1, text: "# CC0: no rights reserved" }]), undefined);
    assert.equal(reservedRightsLine([{ line: 1, text: "import os" }]), undefined);
    assert.equal(reservedRightsLine([{ line: 30, text: "# all rights reserved" }]), undefined);
  });

  test("a new source file with an all-rights-reserved header breaks the contribution rule; one without a header does not", async () => {
    const guide = "# Contributing\n\n## Public domain\n\nAll contributions to this project will be released under the CC0 dedication. By opening a pull request you agree to this waiver.\n";
    const r = createGitRepo([{ message: "init", files: { "CONTRIBUTING.md": guide, "README.md": "# Portal\n" } }]);
    const reserved = await checkFilesOverHead(r, { "app/cache.py": "# Copyright (c) 2026 Vendor Co. All rights reserved.\n\nCACHE = {}\n" });
    assert.ok(findingSummary(reserved).includes("breaks-rule CONTRIBUTING.md"), JSON.stringify(reserved.findings));
    const plain = await checkFilesOverHead(r, { "app/cache.py": "CACHE = {}\n" });
    assert.deepEqual(findingSummary(plain), []);
  });
});
