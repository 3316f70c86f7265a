import { test } from "./fixtures.ts";

// A key or a click that reaches a page React has been asked to hydrate makes React 18 hydrate it at
// once, synchronously. Before React's first pass has begun, that forced pass meets Remix's root
// waiting for its streamed loader data (it always waits once), and a wait in a forced pass is
// React's error 345 ("Root did not complete"), which a sign-up test met when its click landed in
// that moment. The entry module's last statement is the call to hydrate: a key pressed right after
// it is the earliest such event there can be.
test("a key pressed just as the page starts to hydrate breaks nothing", async ({ page }) => {
  await page.route(/\/assets\/entry\.client-[\w-]+\.js$/, async (route) => {
    const response = await route.fetch();
    const body = `${await response.text()}\ndocument.body.dispatchEvent(new KeyboardEvent("keydown", { key: "Shift", bubbles: true }));\n`;
    await route.fulfill({ response, body });
  });
  await page.goto("/auth");
  // Hydrated: React's fiber is on the body. The fixture fails the test on any error in the page.
  await page.waitForFunction(() => Object.keys(document.body).some((key) => key.startsWith("__reactFiber")));
});
