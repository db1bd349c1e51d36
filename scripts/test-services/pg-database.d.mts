export function createPgDatabase(prefix?: string): Promise<{ url: string; drop: () => Promise<void> }>;
