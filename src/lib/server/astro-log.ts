// Astro's log destination (astro.config.mjs `logger`): Astro's console output, except that an error repeated
// on every request (a page failing on a damaged table) is written once a minute with a count.
import consoleDestination from 'astro/logger/console';
import { createErrorLog } from '../error-log.ts';

type Destination = ReturnType<typeof consoleDestination>;
type LogEvent = Parameters<Destination['write']>[0];

export default function repeatAwareDestination(config?: Parameters<typeof consoleDestination>[0]): Destination {
  const base = consoleDestination(config);
  const events = new Map<string, LogEvent>();
  const logError = createErrorLog({
    write: (...parts) => {
      const event = events.get(String(parts[0]));
      const message = parts.length > 1 ? String(parts[1]) : String(parts[0]);
      base.write({ label: event?.label ?? null, level: 'error', message, newLine: event?.newLine ?? true });
    },
  });
  return {
    ...base,
    write(event) {
      if (event.level !== 'error') return base.write(event);
      // Astro logs a failed render as the error's stack: the text itself says which error it is.
      const context = `[${event.label ?? 'astro'}]`;
      events.set(context, event);
      logError(context, event.message);
    },
  };
}
