export const preactAliases: { find: RegExp; replacement: string }[];
