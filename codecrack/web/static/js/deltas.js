// State deltas (codecrack/web/deltas.py): the server sends a whole view on connect and on
// request, then after each action only the changes from the view it sent last. A change is
// ["set", path, value], ["del", path] or ["add", path, items] (items appended to a list).

// The view after `changes`, as a new object: the parts on a changed path are copied, the rest
// is shared, so an earlier view stays as it was.
export function applyDelta(view, changes) {
  return changes.reduce((data, [kind, path, value]) => applyOne(data, kind, path, value), view);
}

function applyOne(data, kind, path, value) {
  if (path.length === 0) {
    if (kind === "set") return value;
    if (kind === "add") return [...data, ...value];
    throw new Error(`cannot ${kind} the whole view`);
  }
  const [head, ...rest] = path;
  const copy = Array.isArray(data) ? [...data] : { ...data };
  if (kind === "del" && rest.length === 0) delete copy[head];
  else copy[head] = applyOne(copy[head], kind, rest, value);
  return copy;
}

// Follows one socket's state: whole views and deltas, in order. `receive` answers the view to
// show, or null while a delta does not fit the view held (its base is another step): the holder
// then asks the server for a whole view once (`resync`) and skips deltas until it arrives. A new
// socket needs no reset: the server greets every connection with a whole view.
export class ViewTracker {
  constructor(resync) {
    this.resync = resync;
    this.view = null;
    this.step = null;
    this.waiting = false;
  }

  receive(message) {
    if (message.type === "state") {
      this.view = message.view;
      this.step = message.step;
      this.waiting = false;
      return this.view;
    }
    if (this.waiting) return null;
    if (this.view === null || message.base !== this.step) {
      this.waiting = true;
      this.resync();
      return null;
    }
    this.view = applyDelta(this.view, message.changes);
    this.step = message.step;
    return this.view;
  }
}
