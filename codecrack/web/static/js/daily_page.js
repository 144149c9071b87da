// What every daily puzzle's page shares (a game's daily.js and decision.js): the context its game's
// board is drawn with, and a request whose answer the page keeps (or whose refusal it shows).

// The board's `ctx` for `page` (its `ui`, `error`, `render()` and `send(action)`): one seat's view,
// no table; `over` leaves nothing to send.
export function boardContext(page, { view, seat, over, name }) {
  return {
    view, table: null, seat, ui: page.ui, hint: null, error: page.error, notes: {}, saveNotes: () => {},
    rerender: () => page.render(), send: over ? null : (action) => page.send(action), name,
  };
}

// Await `request()`; `keep` its answer (and clear the page's error), or show the refusal; redraw.
export async function answered(page, request, keep) {
  try {
    keep(await request());
    page.error = "";
  } catch (error) {
    page.error = error.message;
  }
  page.render();
}
