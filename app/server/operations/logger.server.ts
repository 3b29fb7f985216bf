import { AsyncLocalStorage } from 'node:async_hooks'
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino'
import { PinoPretty } from 'pino-pretty'
import { LOG_REDACTED_PATHS, redactText, redactValue } from './redaction.server'

// The store's one logger (docs/operations.md, "Logs"): one JSON line per event on standard output
// with its level, time, module and the request's id, and no personal data (redaction.server.ts).
// In demo mode (`npm start` on a laptop, `npm run dev`) the same lines are printed for a person to
// read; LOG_FORMAT=json or pretty chooses either way, LOG_LEVEL the least level written.
//
// `npm start` loads this module twice, once from scripts/ and server/http.ts and once inside the
// server build, and Vite's dev server reloads it on change: the logger and the request context live
// on globalThis, so every copy writes through one stream with one configuration.

export type LogFormat = 'json' | 'pretty'
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]
export const LOG_FORMATS = ['json', 'pretty'] as const

/** What the logger reads from the environment; invalid values are refused at start by env.server.ts. */
export function logSettingsFrom(source: Record<string, string | undefined>): { format: LogFormat; level: LogLevel } {
  const demoMode = !['0', 'false'].includes(source.DEMO_MODE ?? '')
  const format = (LOG_FORMATS as readonly string[]).includes(source.LOG_FORMAT ?? '')
    ? (source.LOG_FORMAT as LogFormat)
    : demoMode
      ? 'pretty'
      : 'json'
  const level = (LOG_LEVELS as readonly string[]).includes(source.LOG_LEVEL ?? '')
    ? (source.LOG_LEVEL as LogLevel)
    : 'info'
  return { format, level }
}

/** What every line written while a request is served carries. */
export type RequestContext = { requestId: string }

type LogState = {
  root: Logger
  requestContext: AsyncLocalStorage<RequestContext>
  /** Where lines go: the terminal's pretty printer or standard output. */
  output: DestinationStream
  /** Tests: lines go here instead while set (captureLogLines). */
  capture: string[] | undefined
}

const STATE_KEY = Symbol.for('research-store.logger')
const globalForLogs = globalThis as { [STATE_KEY]?: LogState }

function createLogState(): LogState {
  const { format, level } = logSettingsFrom(process.env)
  const requestContext = new AsyncLocalStorage<RequestContext>()
  const output: DestinationStream =
    format === 'pretty'
      ? PinoPretty({
          sync: true,
          // The request line's fields are all in its message; the rest print below it.
          ignore: 'pid,hostname,module,method,url,route,status,durationMs',
          messageFormat: (line, messageKey) =>
            `${line.module ? `(${String(line.module)}) ` : ''}${String(line[messageKey] ?? '')}`,
          translateTime: 'SYS:HH:MM:ss.l',
        })
      : pino.destination({ fd: 1, sync: true })
  const state: LogState = { root: undefined as unknown as Logger, requestContext, output, capture: undefined }
  const destination: DestinationStream = {
    write: (line: string) => {
      if (state.capture) state.capture.push(line)
      else state.output.write(line)
    },
  }
  const options: LoggerOptions = {
    level,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label) => ({ level: label }),
      // Every string in the fields, nested ones and errors included, by pattern; field names below.
      log: (fields) => redactValue(fields) as Record<string, unknown>,
    },
    // formatters.log has already made errors plain objects: pino's own error serializer would call them "Object".
    serializers: { err: (value: unknown) => value },
    redact: { paths: LOG_REDACTED_PATHS, censor: '[redacted]' },
    mixin: () => {
      const context = requestContext.getStore()
      return context ? { reqId: context.requestId } : {}
    },
    hooks: {
      // The message and its format arguments, and an error's message when it stands in for one.
      logMethod(args, method) {
        const [first, second] = args as unknown[]
        if (first instanceof Error && typeof second !== 'string')
          return method.apply(this, [first, redactText(first.message)] as Parameters<typeof method>)
        const redacted = (args as unknown[]).map((arg) => (typeof arg === 'string' ? redactText(arg) : arg))
        return method.apply(this, redacted as Parameters<typeof method>)
      },
      // The last net: the finished line, whatever reached it (an escape in JSON can hide a pattern above).
      streamWrite: (line) => redactText(line),
    },
  }
  state.root = pino(options, destination)
  return state
}

const state = (globalForLogs[STATE_KEY] ??= createLogState())

/** The store's root logger; modules take a child named for them (loggerFor). */
export const logger: Logger = state.root

/** A module's logger: every line says which module wrote it (`module` in JSON). */
export function loggerFor(module: string): Logger {
  return state.root.child({ module })
}

/** Runs `work` (a request's handling) so that every line written meanwhile carries its id. */
export function withRequestContext<T>(context: RequestContext, work: () => T): T {
  return state.requestContext.run(context, work)
}

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return state.requestContext.getStore()?.requestId
}

export type LogLine = { level: string; time: string; msg: string; module?: string; reqId?: string } & Record<
  string,
  unknown
>

/**
 * For tests: every line written from now on is kept, as the JSON the logger produced, instead of
 * printed; `lines()` parses them, `text()` gives them as written, `stop()` prints again.
 */
export function captureLogLines(): { lines: () => LogLine[]; text: () => string; stop: () => void } {
  const captured: string[] = []
  const previous = state.capture
  state.capture = captured
  return {
    lines: () => captured.map((line) => JSON.parse(line) as LogLine),
    text: () => captured.join(''),
    stop: () => {
      if (state.capture === captured) state.capture = previous
    },
  }
}
