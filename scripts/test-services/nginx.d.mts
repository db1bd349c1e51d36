export interface TestNginx {
  port: number;
  base: string;
  pid: number | undefined;
  /** "METHOD URI STATUS" lines, when started with accessLog. */
  accessLog(): string[];
  stop(): Promise<void>;
}

export function hasNginx(): boolean;

export function startNginx(options: {
  locations: (port: number) => string;
  http?: string;
  accessLog?: boolean;
}): Promise<TestNginx>;
