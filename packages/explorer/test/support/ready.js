/**
 * How long a browser step may wait for the page (ms): a bound, not a pace, as every wait ends as
 * soon as what it waits for appears. The slowest wait it bounds is a first load of the page with
 * Swagger UI's 1.4 MB bundle beside the bench's CPU hog (one busy thread per core): about 20 s
 * on the 2-core machine; a minute is that three times over, and a wait that outlives it names what
 * never happened (Playwright names the locator, expect.poll its message).
 */
export const READY_MS = 60_000;
