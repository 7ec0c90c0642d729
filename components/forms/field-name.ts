// react-hook-form reads dots in a field name as nesting; option keys such as
// "gemini.safety_settings" hold dots, so the form names them with the dots replaced.
export const fieldName = (key: string) => key.replace(/\./g, "__");
export const optionKey = (name: string) => name.replace(/__/g, ".");
