/** `YYYY-MM-DD` of today plus `days`, in this process's time zone (the browser's in the browser tests: both the machine's). */
export function dayFromToday(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** That day as the API stores a task's date (midnight UTC). */
export const dateFromToday = (days: number) => `${dayFromToday(days)}T00:00:00.000Z`;
