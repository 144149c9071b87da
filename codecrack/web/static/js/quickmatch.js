// Quick match on a game's card: the page waits in the server's queue (calling it every couple of
// seconds; the server forgets a page that stops calling) until it is seated with other players,
// or, after the wait the server states, the player takes the AI of about their strength instead.
import { api, seats } from "./api.js";
import { agentTitle, button, h, icon } from "./dom.js";
import { t } from "./i18n.js";

const EVERY = 2000; // ms between two calls of a waiting page (the server forgets one silent for 10 s)

// The card's Quick match button and the panel that shows the wait. ``choices``: {players, tier, preset};
// ``playAi(tier)`` starts a table against the AI; ``error``: the card's error line.
export function quickMatch(game, choices, playAi, error) {
  const panel = h("div", { class: "match-panel", hidden: true });
  let waiting = null; // the timer of the next call while waiting
  let asking = null; // the call under way
  const stop = () => {
    clearTimeout(waiting);
    waiting = null;
    removeEventListener("pagehide", closing);
  };
  const closing = () => api.leaveMatch(true).catch(() => {});
  const seated = (answer) => {
    seats.set(answer.code, answer.seat, answer.token);
    location.href = `/t/${answer.code}`;
  };
  // Stop waiting once the call under way is answered (else it could queue the player again); a
  // seat it brought is taken (the other players are already there): true then.
  const cancel = async () => {
    stop();
    const last = await asking?.catch(() => null);
    if (last?.state === "seated") {
      seated(last);
      return true;
    }
    await api.leaveMatch().catch(() => {});
    panel.hidden = true;
    return false;
  };
  const status = h("p", { role: "status" });
  const offer = h("div", { class: "match-offer" });
  const call = async () => {
    try {
      asking = api.match(game.name, choices.players, choices.preset);
      const answer = await asking;
      if (waiting === null) return; // cancelled meanwhile
      if (answer.state === "seated") {
        stop();
        return seated(answer);
      }
      status.textContent = t("home.match.waiting", { players: choices.players, seconds: Math.floor(answer.waited) });
      if (answer.waited < answer.ai_after) {
        offer.textContent = t("home.match.ai_after", { seconds: Math.round(answer.ai_after) });
      } else if (!offer.querySelector("button")) {
        const tier = answer.ai ?? choices.tier; // about the player's strength, where the game's tiers are rated
        offer.replaceChildren(button([icon("bot"), " ", t("home.match.ai", { tier: agentTitle(tier) })], async () => {
          if (!(await cancel())) playAi(tier);
        }, { class: "match-ai primary", dataset: { tier } }));
      }
      waiting = setTimeout(call, EVERY);
    } catch (failure) {
      stop();
      panel.hidden = true;
      error.textContent = failure.message;
    }
  };
  const start = () => {
    if (waiting !== null) return;
    error.textContent = "";
    offer.replaceChildren();
    status.textContent = t("home.match.looking");
    panel.replaceChildren(status, offer, button(t("home.match.cancel"), cancel, { class: "match-cancel" }));
    panel.hidden = false;
    addEventListener("pagehide", closing);
    waiting = setTimeout(call, 0);
  };
  const open = button([icon("play"), " ", t("home.quick_match")], start, { class: "quick-match", dataset: { game: game.name } });
  return { open, panel };
}
