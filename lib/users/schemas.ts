// The account calls' input shapes, for the server: the shared rules of lib/users/field-rules.ts.
import "server-only";
export * from "@/lib/users/field-rules";
