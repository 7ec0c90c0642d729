// A group's description as the console shows it (docs/i18n.md, "Where the words live"): the
// shipped descriptions in the reader's language, the operator's own as written.
import { useTranslations } from "next-intl";
import { SHIPPED_GROUP_DESCRIPTIONS } from "@/lib/options/shipped-groups";

export function useGroupDescription(): (group: string, description: string) => string {
  const t = useTranslations("common.groupDescriptions");
  return (group, description) => {
    if (group === "default" && description === SHIPPED_GROUP_DESCRIPTIONS.default) return t("default");
    if (group === "vip" && description === SHIPPED_GROUP_DESCRIPTIONS.vip) return t("vip");
    return description;
  };
}
