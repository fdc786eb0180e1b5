//! canastra-spec's driver for the dgmneto/canastra engine crate.
//!
//! One JSON request a line on stdin, one JSON answer a line on stdout. Every
//! answer is `{"ok": true, ...}` or `{"ok": false, ...}`; the first line
//! written is `{"ok": true, "ready": true}`. The driver decides nothing: each
//! operation calls one public function of the engine on values the engine's
//! own serde forms decode, and returns what it computed.
//!
//! Operations (`"op"`):
//!
//! - `check {state}`: `GameState::check_invariants`.
//! - `validate {state, seat, action}`, `apply {state, seat, action}`: the
//!   engine's `validate` and `apply`; a refusal is `{"ok": false, "violation":
//!   <RuleViolation>, "message": <its Display>}`.
//! - `enumerate {state, seat}`: the engine's legal-move list.
//! - `score {state}`: `score_hand` for both partnerships, with `HandScore::total`.
//! - `settle {state}`: `settle_hand` on a finished hand: the phase it leads to
//!   (`MatchOver` or the next hand's), the banked scores and `GameState::winner`.
//! - `new_game {seed}`: the engine's own deal.
//! - `meld {cards}`: `Meld::new` with its canastra kind, bonus and card points.
//! - `opening_minimum {score, penalized}`: `GameState::opening_minimum_for`.
//! - `restart_turn {turn_start, current, seat}`: what the engine's own match
//!   drivers do with a dead-ended turn (harness/src/match.ts `restartTurn`):
//!   judge `GameState::restart_penalizes_opening` on the current state, go
//!   back to the turn's start, and latch `penalize_opening` (§6.1).
//! - `facts`: the constants and deck the crate publishes (`card::deck`,
//!   `HAND_SIZE`, `TARGET_SCORE`, `Seat::next`, `Seat::team`, card points,
//!   wildness) and the dealer `settle_hand` passes the deal to.
//!
//! Bad input (not JSON, an unknown op, a value the engine's serde forms
//! refuse) is `{"ok": false, "bad_input": <message>}`; an engine panic is
//! `{"ok": false, "panic": <message>}`. Neither stops the driver.

use canastra_engine::action::Action;
use canastra_engine::card::{deck, Card};
use canastra_engine::meld::Meld;
use canastra_engine::state::{HAND_SIZE, TARGET_SCORE};
use canastra_engine::{apply, enumerate, new_game, score_hand, settle_hand, validate};
use canastra_engine::{GameState, Phase, Seat, Team};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};

fn main() {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{}", json!({"ok": true, "ready": true}));
    let _ = out.flush();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let answer = match serde_json::from_str::<Value>(&line) {
            Err(error) => bad(format!("not JSON: {error}")),
            Ok(request) => match panic::catch_unwind(AssertUnwindSafe(|| handle(&request))) {
                Ok(answer) => answer,
                Err(payload) => {
                    let text = payload
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "a panic without a message".to_string());
                    json!({"ok": false, "panic": text})
                }
            },
        };
        if writeln!(out, "{answer}").is_err() || out.flush().is_err() {
            break;
        }
    }
}

fn bad(message: String) -> Value {
    json!({"ok": false, "bad_input": message})
}

/// Decode `request[key]` with the engine's own serde form.
fn field<T: DeserializeOwned>(request: &Value, key: &str) -> Result<T, Value> {
    let value = request.get(key).cloned().unwrap_or(Value::Null);
    serde_json::from_value(value).map_err(|error| bad(format!("{key}: {error}")))
}

fn to_value<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("the engine's types serialize")
}

fn handle(request: &Value) -> Value {
    let op = request.get("op").and_then(Value::as_str).unwrap_or("");
    let result = match op {
        "check" => check(request),
        "validate" => run(request, false),
        "apply" => run(request, true),
        "enumerate" => list(request),
        "score" => score(request),
        "settle" => settle(request),
        "new_game" => field::<u64>(request, "seed").map(|seed| json!({"ok": true, "state": to_value(&new_game(seed))})),
        "meld" => meld(request),
        "opening_minimum" => opening_minimum(request),
        "restart_turn" => restart_turn(request),
        "facts" => Ok(facts()),
        _ => Err(bad(format!("unknown op {op:?}"))),
    };
    result.unwrap_or_else(|error| error)
}

fn check(request: &Value) -> Result<Value, Value> {
    let state: GameState = field(request, "state")?;
    Ok(match state.check_invariants() {
        Ok(()) => json!({"ok": true}),
        Err(problem) => json!({"ok": false, "invariant": to_value(&problem), "message": problem.to_string()}),
    })
}

fn run(request: &Value, transition: bool) -> Result<Value, Value> {
    let state: GameState = field(request, "state")?;
    let seat: Seat = field(request, "seat")?;
    let action: Action = field(request, "action")?;
    let outcome = if transition {
        apply(&state, seat, &action).map(|next| json!({"ok": true, "state": to_value(&next)}))
    } else {
        validate(&state, seat, &action).map(|()| json!({"ok": true}))
    };
    Ok(outcome.unwrap_or_else(|violation| {
        json!({"ok": false, "violation": to_value(&violation), "message": violation.to_string()})
    }))
}

fn list(request: &Value) -> Result<Value, Value> {
    let state: GameState = field(request, "state")?;
    let seat: Seat = field(request, "seat")?;
    Ok(json!({"ok": true, "actions": to_value(&enumerate(&state, seat))}))
}

fn score(request: &Value) -> Result<Value, Value> {
    let state: GameState = field(request, "state")?;
    let teams: Vec<Value> = Team::ALL
        .iter()
        .map(|team| {
            let score = score_hand(&state, *team);
            let mut value = to_value(&score);
            value["total"] = json!(score.total());
            value
        })
        .collect();
    Ok(json!({"ok": true, "teams": teams}))
}

fn settle(request: &Value) -> Result<Value, Value> {
    let state: GameState = field(request, "state")?;
    Ok(match settle_hand(&state) {
        Ok(next) => json!({
            "ok": true,
            "phase": to_value(&next.phase),
            "scores": to_value(&next.scores),
            "winner": next.winner().map(|team| team.index()),
        }),
        Err(violation) => json!({"ok": false, "violation": to_value(&violation), "message": violation.to_string()}),
    })
}

fn meld(request: &Value) -> Result<Value, Value> {
    let cards: Vec<Card> = field(request, "cards")?;
    Ok(match Meld::new(&cards) {
        Ok(meld) => json!({
            "ok": true,
            "meld": to_value(&meld),
            "canastra": to_value(&meld.canastra()),
            "bonus": meld.canastra().bonus(),
            "card_points": meld.card_points(),
        }),
        Err(reason) => json!({"ok": false, "meld_error": to_value(&reason), "message": reason.to_string()}),
    })
}

fn opening_minimum(request: &Value) -> Result<Value, Value> {
    let score: i32 = field(request, "score")?;
    let penalized: bool = field(request, "penalized")?;
    let team = Team::ALL[0];
    let mut state = new_game(0);
    state.scores = [score, 0];
    if penalized {
        state.penalize_opening(team);
    }
    Ok(json!({"ok": true, "minimum": state.opening_minimum_for(team)}))
}

fn restart_turn(request: &Value) -> Result<Value, Value> {
    let mut restored: GameState = field(request, "turn_start")?;
    let current: GameState = field(request, "current")?;
    let seat: Seat = field(request, "seat")?;
    let failed = current.restart_penalizes_opening(seat);
    let penalized = failed && restored.penalize_opening(seat.team());
    Ok(json!({"ok": true, "state": to_value(&restored), "penalized": penalized}))
}

/// What the crate itself publishes about its table, and the dealer of the
/// hand after one: `settle_hand` on a finished first hand of `new_game`.
fn facts() -> Value {
    let cards = deck();
    let mut distinct: Vec<Card> = cards.clone();
    distinct.sort_by_key(|card| card.to_string());
    distinct.dedup();
    let points: serde_json::Map<String, Value> =
        distinct.iter().map(|card| (card.to_string(), json!(card.points()))).collect();
    let wild: Vec<String> = distinct.iter().filter(|card| card.is_wild()).map(|card| card.to_string()).collect();

    let mut finished = new_game(0);
    let first_player = finished.turn;
    let dealer = finished.dealer;
    finished.phase = Phase::HandOver;
    let next = settle_hand(&finished).map(|next| to_value(&next.dealer)).unwrap_or(Value::Null);

    json!({
        "ok": true,
        "deck": to_value(&cards),
        "hand_size": HAND_SIZE,
        "target_score": TARGET_SCORE,
        "seats": Seat::ALL.len(),
        "next_seat": Seat::ALL.iter().map(|seat| to_value(&seat.next())).collect::<Vec<_>>(),
        "team_of_seat": Seat::ALL.iter().map(|seat| to_value(&seat.team())).collect::<Vec<_>>(),
        "points": points,
        "wild": wild,
        "dealer": to_value(&dealer),
        "first_player": to_value(&first_player),
        "next_dealer": next,
    })
}
