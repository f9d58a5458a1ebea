/* When a mailing may send: digest times and quiet hours in MAILING_TZ (pure functions). */
import { addDays, dayIn, zonedInstant } from '@forpost/contract/analytics';
import { MAILING_TZ, type MailingParams } from '@forpost/contract/mailings';

const hourFormat = new Map<string, Intl.DateTimeFormat>();
/** Local hour (0–23) and ISO weekday (1 = Monday) of an instant in `tz`. */
function localHourAndWeekday(at: Date, tz: string = MAILING_TZ): { hour: number; weekday: number } {
  let f = hourFormat.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', hour: 'numeric', weekday: 'short' });
    hourFormat.set(tz, f);
  }
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(String(p.weekday)) + 1;
  return { hour: Number(p.hour) % 24, weekday };
}

/** Inside the quiet hours [from, to) (wrapping midnight when from > to)? */
export function isQuiet(at: Date, quiet: MailingParams['quiet_hours'], tz: string = MAILING_TZ): boolean {
  if (!quiet) return false;
  const { hour } = localHourAndWeekday(at, tz);
  return quiet.from < quiet.to ? hour >= quiet.from && hour < quiet.to : hour >= quiet.from || hour < quiet.to;
}

/** The next digest time strictly after `after` (null for instant mailings). */
export function nextDigestAt(
  params: Pick<MailingParams, 'frequency' | 'hour' | 'weekday'>,
  after: Date,
  tz: string = MAILING_TZ,
): Date | null {
  if (params.frequency === 'instant') return null;
  if (params.frequency === 'hourly') return new Date(Math.floor(after.getTime() / 3_600_000) * 3_600_000 + 3_600_000);
  const today = dayIn(after, tz);
  for (let i = 0; i <= 8; i++) {
    const day = addDays(today, i);
    const at = zonedInstant(day, params.hour, 0, tz);
    if (at.getTime() <= after.getTime()) continue;
    if (params.frequency === 'weekly' && localHourAndWeekday(at, tz).weekday !== params.weekday) continue;
    return at;
  }
  return null;
}
