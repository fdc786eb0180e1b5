// A function-call bridge from the Python adapter to jphd3v/anycard's rules
// engine (its backend, TypeScript, loaded with the tsx the checkout's backend
// installs). One JSON request a line on stdin, one JSON answer a line on
// stdout; the first line is {"ok": true, "ready": true}.
//
//   {"op": "template", "seed"}          the game's initial state, as the
//                                       engine's loadAndValidateGameConfig builds it
//   {"op": "intent", "state", "intent"} validateMove, then the engine's events
//                                       applied with its applyEvent:
//                                       {"valid", "reason", "state", "table"}
//                                       where "table" is the state just before the
//                                       first event that moves cards into the deck
//                                       (the engine gathers the cards there when a
//                                       hand ends), or null
//   {"op": "legal", "state", "player"}  listLegalIntentsForPlayer
//
// The engine logs to console.log; the bridge sends that to stderr so that
// stdout carries answers only. Usage: node bridge.mjs CHECKOUT
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import readline from 'node:readline'

const checkout = process.argv[2]
console.log = (...args) => console.error(...args)
const require = createRequire(`${checkout}/backend/package.json`)
const { register } = await import(pathToFileURL(require.resolve('tsx/esm/api')).href)
register()
const load = (path) => import(pathToFileURL(`${checkout}/${path}`).href)
const { loadAndValidateGameConfig } = await load('backend/src/game-config.ts')
const { validateMove } = await load('backend/src/rule-engine.ts')
const { buildValidationState } = await load('backend/src/validation-state.ts')
const { GAME_PLUGINS } = await load('backend/src/rules/registry.ts')
const { applyEvent } = await load('backend/src/state.ts')

const RULES_ID = 'canasta'
const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n')

async function intent (state, move) {
  const result = await validateMove(state, [], move)
  if (!result.valid) return { valid: false, reason: result.reason ?? '' }
  let next = state
  let table = null
  for (const event of result.engineEvents) {
    if (table === null && event.type === 'move-cards' && event.toPileId === 'deck' && event.fromPileId !== 'deck') {
      table = next
    }
    next = applyEvent(next, event)
  }
  return { valid: true, state: next, table }
}

function legal (state, player) {
  const dummy = { type: 'action', gameId: state.gameId, playerId: player, action: 'dummy' }
  const module = GAME_PLUGINS[state.rulesId].ruleModule
  return module.listLegalIntentsForPlayer(buildValidationState(state, [], dummy), player) ?? []
}

out({ ok: true, ready: true })
const rl = readline.createInterface({ input: process.stdin })
for await (const line of rl) {
  if (!line.trim()) continue
  let req
  try {
    req = JSON.parse(line)
  } catch (e) {
    out({ ok: false, bad_input: `not JSON: ${e}` })
    continue
  }
  try {
    if (req.op === 'template') {
      out({ ok: true, state: loadAndValidateGameConfig(RULES_ID, req.seed ?? undefined) })
    } else if (req.op === 'intent') {
      out({ ok: true, ...(await intent(req.state, req.intent)) })
    } else if (req.op === 'legal') {
      out({ ok: true, intents: legal(req.state, req.player) })
    } else {
      out({ ok: false, bad_input: `unknown op ${JSON.stringify(req.op)}` })
    }
  } catch (e) {
    out({ ok: false, error: String((e && e.stack) || e).split('\n').slice(0, 3).join(' | ') })
  }
}
