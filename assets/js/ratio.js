export function enhanceRatioTables() {}
