// The colours a status badge can take. Defined here, not in components/ui/badge.tsx, so that
// lib/ never imports components/ (docs/conventions.md, import direction); the badge maps
// each colour to its classes.
export type BadgeColor = "gray" | "green" | "red" | "orange" | "blue" | "purple" | "yellow";
