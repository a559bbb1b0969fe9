const isoDuration = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/**
 * Milliseconds of an ISO 8601 duration made of days, hours, minutes and seconds (`PT20S`, `PT22H`, `P730D`); years
 * and months have no fixed length and are refused. Returns undefined for anything else.
 */
export function durationMs(text: string): number | undefined {
  const match = isoDuration.exec(text);
  if (!match || text === 'P' || text.endsWith('T')) return undefined;
  const [days, hours, minutes, seconds] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number];
  return (((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000;
}
