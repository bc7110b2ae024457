/** How often a cache answered from memory and how often it had to ask the database (for /metrics). */
export class CacheStats {
  hits = 0;
  misses = 0;

  hit(): void {
    this.hits++;
  }

  miss(): void {
    this.misses++;
  }
}
