export declare const COMPOSE_SITE: { listen: string; upstreams: string[] };
export declare function siteConf(site: { listen: string; upstreams: string[] }): string;
export declare function standaloneConf(options: { listen: string; upstreams: string[]; dir: string }): string;
