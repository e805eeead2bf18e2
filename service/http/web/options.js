// Each game option as a person reads it in the create form: a label, a short help text, and
// a name for each choice. The spec's descriptions are written for developers (and name the
// rulings); an option missing here still gets a readable label from its name.

import { words } from "./dom.js";

const IDLE = {
  label: "Abandon after idle (minutes)",
  help: "The game ends as abandoned when no seat has played for this long.",
};

const OPTIONS = {
  danger: {
    fourth_row_needs: {
      label: "Protecting the fourth row needs",
      help: "Cards a player needs before protecting their last colour: 6 or more in that row, or in front of them in all.",
      choices: { row: "6 cards in that row (rulebook)", total: "6 cards in front (German original)" },
    },
    turn_seconds: {
      label: "Turn clock (seconds)",
      help: "Empty: no clock. A seat out of time draws from the stack and protects nothing.",
    },
    idle_minutes: IDLE,
  },
  "high-voltage": {
    teams: {
      label: "Play in teams",
      help: "Four seats only: seats 0 and 2 play against seats 1 and 3.",
    },
    tiebreak_round: {
      label: "Break a tie with one more round",
      help: "Otherwise a tie after round 3 shares the victory.",
    },
    turn_seconds: {
      label: "Turn clock (seconds)",
      help: "Empty: no clock. Out of time, a seat keeps its lowest cards in the draft and plays its lowest card in a trick.",
    },
    idle_minutes: IDLE,
  },
  "danger-13": {
    deck: {
      label: "Cards in the deck",
      help: "How many of each card; the rulebook's deck unless changed.",
    },
    turn_seconds: {
      label: "Turn clock (seconds)",
      help: "Empty: no clock. A dealer out of time gives the card to the first seat without one; a seat deciding accepts the card.",
    },
    idle_minutes: IDLE,
  },
  "danger-danger": {
    deck: {
      label: "Cards in each team's deck",
      help: "How many of each card; the rulebook's deck unless changed.",
    },
    round_seconds: {
      label: "Round timer (seconds)",
      help: "The hidden timer of each round (the rulebook's is 60 seconds).",
    },
    idle_minutes: IDLE,
  },
};

export function optionText(game, name, description) {
  const known = (OPTIONS[game] || {})[name];
  if (known) return { choices: {}, ...known };
  const label = words(name);
  return { label: label[0].toUpperCase() + label.slice(1), help: (description || "").split(". ")[0], choices: {} };
}
