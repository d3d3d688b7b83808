// The srl_zoo page: sends the text to POST /api/label and draws each predicate's frame as a row of the
// sentence with its arguments as coloured, labeled spans. No external scripts, fonts or styles.
"use strict";

const PALETTE = {
  "ARG0": "#ffd8b5", "ARG1": "#b6e3ff", "ARG2": "#c7f0c2", "ARG3": "#f5d0fe", "ARG4": "#fff3a8", "ARG5": "#e2d9f3",
  "ARGM-TMP": "#ffc9c9", "ARGM-LOC": "#c3f0e8", "ARGM-MNR": "#e5dbff", "ARGM-ADV": "#ffe3bf", "ARGM-NEG": "#ffb3b3",
  "ARGM-MOD": "#d3f9d8", "ARGM-DIS": "#e9ecef", "ARGM-CAU": "#fcc2d7", "ARGM-PRP": "#d0ebff", "ARGM-DIR": "#fff0f6",
  "ARGM-EXT": "#f3f0ff", "ARGM-PRD": "#e6fcf5",
};

function roleColour(role) {
  const base = role.replace(/^[CR]-/, "");
  if (PALETTE[base]) return PALETTE[base];
  let hash = 0;
  for (const character of base) hash = (hash * 31 + character.charCodeAt(0)) % 360;
  return `hsl(${hash}, 70%, 85%)`;
}

function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

// shown on hover: the role, what it means, and how sure the model is
function argumentTitle(argument) {
  const parts = [argument.description ? `${argument.role}: ${argument.description}` : argument.role];
  if (typeof argument.score === "number") parts.push(`score ${argument.score.toFixed(2)}`);
  return parts.join(" · ");
}

function drawFrame(sentence, frame, sentenceIndex, frameIndex) {
  const predicate = frame.predicate;
  const head = element("div", { class: "predicate" }, [predicate.word]);
  if (predicate.roleset) {  // approve.01 — assent to
    const name = predicate.roleset_name ? ` — ${predicate.roleset_name}` : "";
    head.append(element("span", { class: "roleset", text: `${predicate.roleset}${name}` }));
  } else if (predicate.sense) {
    const sense = predicate.sense;
    head.append(element("span", { class: "sense", text: /^\d+$/.test(sense) ? `sense ${sense}` : sense }));
  }
  const line = element("div", { class: "line" });
  const text = sentence.text;
  const offset = sentence.start_char;
  let position = 0;
  const spans = [...frame.arguments].sort((a, b) => a.start_char - b.start_char);
  for (const argument of spans) {
    const start = argument.start_char - offset;
    const end = argument.end_char - offset;
    if (start > position) line.append(text.slice(position, start));
    const span = element("span", {
      class: `arg role-${argument.role}`,
      "data-sentence": sentenceIndex, "data-frame": frameIndex,
      "data-role": argument.role, "data-start": argument.start, "data-end": argument.end,
      title: argumentTitle(argument),
    }, [text.slice(start, end)]);
    span.style.background = roleColour(argument.role);
    const label = element("sub", {}, [element("span", { class: "role", text: argument.role })]);
    if (argument.description) label.append(element("span", { class: "description", text: argument.description }));
    span.append(label);
    line.append(span);
    position = Math.max(position, end);
  }
  if (position < text.length) line.append(text.slice(position));
  return element("div", { class: "frame", "data-sentence": sentenceIndex, "data-frame": frameIndex }, [head, line]);
}

function draw(answer) {
  const results = document.getElementById("results");
  results.replaceChildren();
  const roles = new Set();
  answer.sentences.forEach((sentence, sentenceIndex) => {
    const box = element("section", { class: "sentence", "data-sentence": sentenceIndex },
      [element("div", { class: "text", text: sentence.text })]);
    if (sentence.frames.length === 0) box.append(element("div", { class: "empty", text: "no predicate found" }));
    sentence.frames.forEach((frame, frameIndex) => {
      frame.arguments.forEach((argument) => roles.add(argument.role));
      box.append(drawFrame(sentence, frame, sentenceIndex, frameIndex));
    });
    results.append(box);
  });
  const legend = document.getElementById("legend");
  legend.replaceChildren(...[...roles].sort().map((role) => {
    const chip = element("span", { class: `role-${role}`, text: role });
    chip.style.background = role === "V" ? "#1f2328" : roleColour(role);
    if (role === "V") chip.style.color = "#fff";
    return chip;
  }));
  document.getElementById("json").textContent = JSON.stringify(answer, null, 2);
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message;
  box.hidden = !message;
}

async function label(event) {
  event.preventDefault();
  const button = document.getElementById("label");
  button.disabled = true;
  showError("");
  try {
    const response = await fetch("/api/label", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ text: document.getElementById("text").value }),
    });
    const answer = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (!response.ok) {
      showError(`Error ${response.status}: ${answer.error || "unknown"}`);
      return;
    }
    draw(answer);
    document.body.dataset.labeled = String(Number(document.body.dataset.labeled || 0) + 1);
  } catch (error) {
    showError(`The service did not answer: ${error}`);
  } finally {
    button.disabled = false;
  }
}

async function showModel() {
  try {
    const health = await (await fetch("/health")).json();
    document.getElementById("model").textContent =
      `model ${health.model} · ${health.precision} · ${health.labels.length} roles`;
  } catch (error) {
    document.getElementById("model").textContent = "model details unavailable";
  }
}

document.getElementById("form").addEventListener("submit", label);
document.getElementById("show-json").addEventListener("change", (event) => {
  document.getElementById("json").hidden = !event.target.checked;
});
showModel();
