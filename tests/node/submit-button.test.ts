import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { UNSAFE_DataRouterStateContext } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { SubmitButton } from "#app/components/submit-button.tsx";

// The double-submit guard of every form: while its form is in flight the button is disabled,
// whatever props the screen gave it. Rendered as the browser gets it, with Remix's navigation
// state set to "submitting" the way a pending <Form> sets it.

type Navigation = { state: "idle" } | { state: "submitting"; formData: FormData };

function render(navigation: Navigation, button: ReactNode) {
  const routerState = { navigation } as React.ContextType<typeof UNSAFE_DataRouterStateContext>;
  return renderToStaticMarkup(createElement(UNSAFE_DataRouterStateContext.Provider, { value: routerState }, button));
}

const submitting = (intent: string) => {
  const formData = new FormData();
  formData.set("intent", intent);
  return { state: "submitting", formData } as const;
};

const isDisabled = (html: string) => /<button[^>]* disabled=""/.test(html);

describe("SubmitButton", () => {
  it("is disabled while its own intent is submitting, even when the screen passes disabled={false}", () => {
    const html = render(
      submitting("complete"),
      createElement(SubmitButton, { intent: "complete", disabled: false }, "Pay"),
    );
    expect(isDisabled(html)).toBe(true);
    expect(html).toContain('type="submit"');
    expect(html).toContain('name="intent"');
    expect(html).toContain('value="complete"');
  });

  it("keeps submitting its form when the screen passes a type or an onClick", () => {
    const props = { intent: "save", type: "button", onClick: () => {} } as Parameters<typeof SubmitButton>[0];
    const html = render(submitting("save"), createElement(SubmitButton, props, "Save"));
    expect(html).toContain('type="submit"');
    expect(isDisabled(html)).toBe(true);
  });

  it("stays usable while another form's intent is in flight, and when nothing is", () => {
    expect(isDisabled(render(submitting("other"), createElement(SubmitButton, { intent: "save" }, "Save")))).toBe(
      false,
    );
    expect(isDisabled(render({ state: "idle" }, createElement(SubmitButton, { intent: "save" }, "Save")))).toBe(false);
  });

  it("still honours the screen's own disabled when nothing is in flight", () => {
    expect(
      isDisabled(render({ state: "idle" }, createElement(SubmitButton, { intent: "save", disabled: true }, "Save"))),
    ).toBe(true);
  });
});
