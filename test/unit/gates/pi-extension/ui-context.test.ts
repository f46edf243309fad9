/** `ctx.ui` for extension handlers (gates/pi-extension/ui-context.ts): the members a handler finds. */
import { describe, expect, it } from "vitest";
import { createUiContext } from "../../../../gates/pi-extension/ui-context.ts";

describe("ctx.ui", () => {
  it("has every member of Pi's ExtensionUIContext that gatebench answers, with or without a UI", () => {
    const members = [
      "onTerminalInput",
      "setStatus",
      "setWorkingMessage",
      "setWorkingVisible",
      "setWorkingIndicator",
      "setHiddenThinkingLabel",
      "setWidget",
      "setFooter",
      "setHeader",
      "setTitle",
      "custom",
      "pasteToEditor",
      "setEditorText",
      "getEditorText",
      "editor",
      "addAutocompleteProvider",
      "setEditorComponent",
      "getEditorComponent",
      "theme",
      "getAllThemes",
      "getTheme",
      "setTheme",
      "getToolsExpanded",
      "setToolsExpanded",
      "select",
      "confirm",
      "input",
      "notify",
    ];
    for (const hasUI of [false, true]) {
      const ui = createUiContext({ hasUI, confirm: async () => true }, { questions: [], notifications: [] });
      expect(Object.keys(ui)).toEqual(members);
      expect(Object.values(ui).filter((v) => v === undefined)).toHaveLength(1); // theme
    }
  });
});
