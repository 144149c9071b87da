// An optional chime when it becomes your turn: a short tone made with WebAudio (no audio file),
// switched on or off in the table header and remembered in localStorage.
const STORE = "codecrack:sound";
let audio = null;

export function soundOn() {
  return localStorage.getItem(STORE) === "on";
}

// Flip the setting; switching it on plays the chime once (the click also lets the page use audio).
export function toggleSound() {
  localStorage.setItem(STORE, soundOn() ? "off" : "on");
  if (soundOn()) chime();
}

export function chime() {
  audio ??= new AudioContext();
  const now = audio.currentTime;
  const tone = audio.createOscillator();
  const volume = audio.createGain();
  tone.type = "sine";
  tone.frequency.setValueAtTime(660, now);
  tone.frequency.setValueAtTime(880, now + 0.12);
  volume.gain.setValueAtTime(0.0001, now);
  volume.gain.exponentialRampToValueAtTime(0.2, now + 0.02);
  volume.gain.exponentialRampToValueAtTime(0.0001, now + 0.4);
  tone.connect(volume).connect(audio.destination);
  tone.start(now);
  tone.stop(now + 0.45);
}
