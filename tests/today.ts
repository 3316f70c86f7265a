/** Today's date as the forms' date fields take it (YYYY-MM-DD, UTC), for the Workers tests and Playwright alike. */
export const today = () => new Date().toISOString().slice(0, 10);
