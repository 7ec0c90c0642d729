// Messages the server sends in the {success:false, message} envelope, in both languages.
// The request's locale (cookie NEXT_LOCALE, then Accept-Language; Chinese by default)
// chooses which one. Parameters are written {name}.
import type { Locale } from "@/lib/i18n/locale";

export const serverMessages = {
  invalid_parameter: { zh: "无效的参数", en: "Invalid parameter" },
  invalid_parameter_detail: { zh: "无效的参数：{detail}", en: "Invalid parameter: {detail}" },
  internal_error: { zh: "服务器内部错误，请联系管理员", en: "Internal server error, please contact the admin" },
  not_found: { zh: "记录不存在", en: "Record not found" },
  mj_image_unavailable: { zh: "无法从上游获取该图片，请稍后再试", en: "The image could not be fetched from the upstream; try again later" },
  too_many_requests: { zh: "请求过于频繁，请稍后再试", en: "Too many requests, please try again later" },
  body_too_large: { zh: "请求体过大", en: "Request body too large" },
  relay_body_too_many_values: {
    zh: "请求体的 JSON 结构过于复杂（最多 {tokens} 个结构字符、{keys} 个键）",
    en: "The request body's JSON is too complex (at most {tokens} structural characters and {keys} keys)",
  },
  relay_body_too_deep: {
    zh: "请求体的 JSON 嵌套过深（最多 {depth} 层）",
    en: "The request body's JSON is nested too deeply (at most {depth} levels)",
  },
  demo_refused: { zh: "演示站点不允许此操作", en: "This site is demo only; this operation is not allowed" },

  // sessions and access
  not_logged_in: { zh: "未登录或登录已过期，请重新登录", en: "Not logged in or the session has expired, please log in again" },
  missing_user_header: { zh: "无权进行此操作，未提供 New-Api-User", en: "Not allowed: the New-Api-User header is missing" },
  user_header_mismatch: {
    zh: "无权进行此操作，New-Api-User 与登录用户不匹配",
    en: "Not allowed: New-Api-User does not match the logged-in user",
  },
  access_token_invalid: { zh: "无权进行此操作，access token 无效", en: "Not allowed: the access token is invalid" },
  permission_denied: { zh: "无权进行此操作，权限不足", en: "Not allowed: insufficient permission" },
  user_banned: { zh: "用户已被封禁", en: "This user has been banned" },

  // setup
  setup_already_done: { zh: "系统已经初始化完成", en: "The system has already been initialized" },
  setup_username_required: { zh: "请输入管理员用户名", en: "Please enter the admin username" },
  setup_password_short: { zh: "密码长度至少为8个字符", en: "The password must be at least 8 characters" },
  setup_password_mismatch: { zh: "两次输入的密码不一致", en: "The two passwords differ" },
  setup_done: { zh: "系统初始化成功", en: "System initialized" },

  // login and registration
  login_required_fields: { zh: "请输入用户名和密码", en: "Please enter username and password" },
  login_failed: { zh: "用户名或密码错误，或用户已被封禁", en: "Wrong username or password, or the user is banned" },
  password_login_disabled: { zh: "管理员关闭了密码登录", en: "The admin has disabled password login" },
  register_disabled: { zh: "管理员关闭了新用户注册", en: "The admin has disabled new user registration" },
  password_register_disabled: {
    zh: "管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册",
    en: "The admin has disabled registration with a password; please register with a third-party account",
  },
  username_password_empty: { zh: "用户名和密码不能为空", en: "Username and password cannot be empty" },
  username_too_long: { zh: "用户名长度不能超过12个字符", en: "The username must not exceed 12 characters" },
  password_too_short: { zh: "密码长度不得小于 8 位", en: "The password length must not be below 8" },
  password_too_long: { zh: "密码长度不得超过 20 位", en: "The password length must not exceed 20" },
  passwords_differ: { zh: "两次输入的密码不一致", en: "The two passwords differ" },
  username_taken: { zh: "用户名已存在，或已注销", en: "The username already exists or was deregistered" },
  email_required: { zh: "请输入邮箱地址", en: "Please enter email" },
  email_invalid: { zh: "邮箱地址无效", en: "Invalid email address" },
  email_code_required: { zh: "请输入邮箱验证码", en: "Please enter the email verification code" },
  email_code_wrong: { zh: "验证码错误或已过期", en: "The verification code is wrong or has expired" },
  email_taken: { zh: "邮箱地址已被占用", en: "This email address is already in use" },
  mail_not_configured: { zh: "管理员未配置 SMTP 邮件服务器", en: "The admin has not configured an SMTP mail server" },
  mail_send_failed: { zh: "邮件发送失败，请稍后再试或联系管理员", en: "The mail could not be sent; try again later or contact the admin" },
  turnstile_failed: { zh: "人机验证失败", en: "The human check failed" },

  // users
  cannot_manage_equal_or_higher: {
    zh: "无权获取、更新或删除同权限等级或更高权限等级的用户信息",
    en: "You cannot read, update or delete users of the same or higher level",
  },
  cannot_create_equal_or_higher: {
    zh: "无法创建权限大于等于自己的用户",
    en: "You cannot create a user with a permission at or above your own",
  },
  cannot_promote_to_admin: {
    zh: "普通管理员用户无法提升其他用户为管理员",
    en: "A regular admin cannot promote users to admin",
  },
  cannot_disable_root: { zh: "无法禁用超级管理员用户", en: "The super admin cannot be disabled" },
  cannot_delete_root: { zh: "无法删除超级管理员用户", en: "The super admin cannot be deleted" },
  cannot_demote_root: { zh: "无法降级超级管理员用户", en: "The super admin cannot be demoted" },
  already_admin: { zh: "该用户已经是管理员", en: "This user is already an admin" },
  already_common: { zh: "该用户已经是普通用户", en: "This user is already a normal user" },
  user_not_found: { zh: "用户不存在", en: "User not found" },
  user_deregistered: { zh: "该用户已注销", en: "This user has been deregistered" },
  session_not_found: { zh: "会话不存在或已结束", en: "Session not found or already ended" },
  delete_confirm_mismatch: {
    zh: "请输入你的账户名以确认删除",
    en: "Please enter your account name to confirm deletion",
  },
  root_cannot_delete_self: { zh: "不能删除超级管理员账户", en: "The super admin account cannot be deleted" },
  original_password_wrong: { zh: "原密码错误", en: "The original password is wrong" },
  aff_transfer_min: { zh: "转移额度最小为{min}！", en: "The transfer amount minimum is {min}" },
  aff_quota_insufficient: { zh: "邀请额度不足！", en: "Not enough invitation earnings" },
  aff_disabled: { zh: "管理员未开启邀请功能", en: "Invitations are turned off by the admin" },
  webhook_https_only: { zh: "Webhook地址必须以https://开头", en: "The webhook address must start with https://" },
  notify_email_invalid: { zh: "通知邮箱地址无效", en: "The notification email address is invalid" },
  threshold_invalid: { zh: "额度预警阈值必须大于0", en: "The quota warning threshold must be greater than 0" },
  // notifications (lib/notify, docs/notifications.md)
  webhook_address_refused: { zh: "Webhook 地址不可用：{detail}", en: "This webhook address cannot be used: {detail}" },
  // {detail} of the two webhook refusals: the outbound policy's reason (lib/net/outbound.ts)
  webhook_refused_loopback: { zh: "它指向本机回环地址", en: "it points to a loopback address" },
  webhook_refused_private: { zh: "它指向内网地址", en: "it points to a private network address" },
  webhook_refused_link_local: { zh: "它指向链路本地地址", en: "it points to a link-local address" },
  webhook_refused_metadata: { zh: "它指向云服务器元数据地址", en: "it points to a cloud metadata address" },
  webhook_refused_unspecified: { zh: "它指向未指定地址", en: "it points to an unspecified address" },
  webhook_refused_multicast: { zh: "它指向组播地址", en: "it points to a multicast address" },
  webhook_refused_broadcast: { zh: "它指向广播地址", en: "it points to a broadcast address" },
  webhook_refused_reserved: { zh: "它指向保留地址段", en: "it points to a reserved address range" },
  webhook_refused_bad_url: { zh: "它不是有效的 https 地址", en: "it is not a valid https URL" },
  webhook_refused_too_many_redirects: { zh: "重定向次数过多", en: "it redirected too many times" },
  notify_no_email: {
    zh: "该用户没有可接收通知的邮箱（未设置通知邮箱，也未绑定邮箱）",
    en: "The user has no e-mail address for notifications (no notification e-mail and no bound e-mail)",
  },
  notify_no_webhook: { zh: "该用户选择了 Webhook 通知，但未设置 Webhook 地址", en: "The user chose webhook notifications but set no webhook address" },
  notify_webhook_refused: { zh: "Webhook 地址被拒绝：{detail}", en: "The webhook address was refused: {detail}" },
  notify_webhook_status: { zh: "Webhook 请求失败：HTTP {status}", en: "The webhook request failed: HTTP {status}" },
  notify_webhook_error: { zh: "Webhook 请求失败：{error}", en: "The webhook request failed: {error}" },
  notify_test_sent_email: { zh: "测试通知已发送到邮箱 {to}", en: "The test notification was sent to {to}" },
  notify_test_sent_webhook: { zh: "测试通知已发送到 Webhook 地址", en: "The test notification was sent to the webhook address" },
  setting_updated: { zh: "设置已更新", en: "Settings updated" },

  // check-in
  check_in_disabled: { zh: "签到功能未启用", en: "Check-in is not enabled" },
  check_in_already: { zh: "今天已经签到过了", en: "You have already checked in today" },
  check_in_success: { zh: "签到成功，获得 {quota} 额度", en: "Checked in, you won {quota}" },

  // quota and tokens (relay and console)
  quota_insufficient_user: { zh: "用户额度不足", en: "Insufficient user quota" },
  quota_insufficient_token: { zh: "令牌额度不足", en: "Insufficient token quota" },
  no_channel_available: { zh: "当前分组 {group} 下对于模型 {model} 无可用渠道", en: "No available channel for model {model} in group {group}" },
  no_embedding_channel: {
    zh: "当前分组 {group} 下没有能为模型 {model} 生成向量（embeddings）的渠道（Anthropic 等无向量接口的渠道不会被选用）",
    en: "No channel in group {group} can make embeddings with model {model} (channels without embeddings, such as Anthropic, are not used)",
  },
  channel_disabled: { zh: "该渠道已被禁用", en: "The channel is disabled" },
  cannot_specify_channel: { zh: "普通用户不支持指定渠道", en: "Regular users cannot specify channels" },
  token_missing: { zh: "未提供令牌", en: "No token provided" },
  token_invalid: { zh: "无效的令牌", en: "Invalid token" },
  token_expired: { zh: "该令牌已过期", en: "The token has expired" },
  token_exhausted: { zh: "该令牌额度已用尽", en: "The token's quota is exhausted" },
  token_unavailable: { zh: "该令牌状态不可用", en: "The token's status is unavailable" },
  group_saturated: { zh: "当前分组上游负载已饱和，请稍后再试", en: "The current group's upstream load is saturated, please try later" },
  redemption_invalid: { zh: "无效的兑换码，或已被使用", en: "The redemption code is invalid or already used" },

  // accounts-api: users, settings and options
  display_name_too_long: { zh: "显示名称长度不能超过20个字符", en: "The display name must not exceed 20 characters" },
  quota_invalid: { zh: "额度必须是非负整数", en: "The quota must be a non-negative integer" },
  quota_changed_concurrently: {
    zh: "用户额度已被其他操作修改，请刷新后重试",
    en: "The user's quota was changed by another operation; reload and try again",
  },
  user_changed_concurrently: {
    zh: "用户状态已被其他操作修改，请刷新后重试",
    en: "The user was changed by another operation; reload and try again",
  },
  option_not_boolean: { zh: "{key} 的值必须是 true 或 false", en: "{key} must be true or false" },
  option_not_number: { zh: "{key} 的值必须是数字", en: "{key} must be a number" },
  option_not_integer: { zh: "{key} 的值必须是整数", en: "{key} must be an integer" },
  option_too_many_decimals: { zh: "{key} 最多保留 {decimals} 位小数", en: "{key} allows at most {decimals} decimal places" },
  option_not_positive: { zh: "{key} 的值必须大于0", en: "{key} must be greater than 0" },
  option_below_min: { zh: "{key} 的值不能小于 {min}", en: "{key} must be at least {min}" },
  option_out_of_range: { zh: "{key} 的值必须在 {min} 到 {max} 之间", en: "{key} must be between {min} and {max}" },
  option_invalid_json: { zh: "{key} 不是合法的 JSON 字符串", en: "{key} is not a valid JSON string" },
  option_ratio_invalid: { zh: "{key} 中的每个值都必须是非负数字", en: "Every value in {key} must be a non-negative number" },
  option_group_limits_invalid: {
    zh: "GroupLimits 必须是 JSON 对象：分组 → {rpm_limit, tpm_limit, concurrency_limit, quota_5h, quota_day, quota_week, quota_month}，每项为非负整数（出错：分组 {group}，字段 {field}）",
    en: "GroupLimits must be a JSON object: group → {rpm_limit, tpm_limit, concurrency_limit, quota_5h, quota_day, quota_week, quota_month}, each a non-negative integer (at fault: group {group}, field {field})",
  },
  option_not_in_list: { zh: "{key} 的值必须是以下之一：{list}", en: "{key} must be one of: {list}" },
  option_invalid_url: { zh: "{key} 必须是以 http:// 或 https:// 开头的地址", en: "{key} must be an address starting with http:// or https://" },
  preset_source_failed: { zh: "无法获取预设倍率来源：{detail}", en: "The preset ratio source could not be fetched: {detail}" },
  preset_source_invalid: { zh: "预设倍率来源的内容无效：{detail}", en: "The preset ratio source is not valid: {detail}" },
  option_rebate_range: { zh: "返佣百分比必须在0到100之间", en: "The rebate percentage must be between 0 and 100" },
  option_topup_group_ratio_json: { zh: "充值分组倍率不是合法的 JSON 字符串", en: "The top-up group ratio is not valid JSON" },
  option_domain_invalid: { zh: "无效的域名 {host}，例如 example.com", en: "Invalid domain {host}, e.g. example.com" },
  option_domain_duplicate: { zh: "域名 {host} 已在白名单中", en: "The domain {host} is already in the whitelist" },
  option_well_known_url: { zh: "Well-Known URL 必须以 http:// 或 https:// 开头", en: "The Well-Known URL must start with http:// or https://" },
  option_payment_needs_server_address: { zh: "请先设置服务器地址，再修改支付设置", en: "Set the server address before the payment settings" },
  option_root_only: { zh: "只有超级管理员可以修改此设置", en: "Only the root user may change this setting" },
  oidc_discovery_failed: {
    zh: "获取 OIDC 配置失败，请检查网络状况和 Well-Known URL 是否正确",
    en: "Failed to fetch the OIDC configuration, check the network and the Well-Known URL",
  },
  oidc_discovery_refused: { zh: "获取 OIDC 配置失败：{detail}", en: "Failed to fetch the OIDC configuration: {detail}" },
  oidc_well_known_missing: { zh: "请先填写 Well-Known URL", en: "Enter the Well-Known URL first" },
  option_retry_status_codes: {
    zh: "自动重试状态码格式错误：{code}，请填写以逗号分隔的状态码或状态码类别，如 5xx,4xx,429",
    en: "Invalid auto-retry status code: {code}; enter comma-separated codes or classes such as 5xx,4xx,429",
  },
  update_check_failed: { zh: "检查更新失败", en: "Check for updates failed" },
  update_check_refused: { zh: "检查更新失败：{detail}", en: "Check for updates failed: {detail}" },
  update_check_not_configured: { zh: "未设置更新检查地址（UpdateCheckUrl）", en: "No update source is set (UpdateCheckUrl)" },
  fallback_pricing_combination: {
    zh: "请勿同时设置单次价格与倍率；使用倍率时需同时设置输入倍率和补全倍率",
    en: "Do not set ratios together with a single price; with ratios, set both the input and the completion ratio",
  },
  // channels, tokens, billing, logs
  channel_type_invalid: { zh: "未知的渠道类型", en: "Unknown channel type" },
  channel_other_invalid: { zh: "渠道的附加字段（other）无效：{detail}", en: "The channel's other field is invalid: {detail}" },
  channel_not_found: { zh: "渠道不存在", en: "Channel not found" },
  channel_copy_not_found: { zh: "渠道不存在，请刷新页面后重试", en: "Channel not found, please refresh the page and retry" },
  channel_test_all_started: { zh: "已开始测试所有已启用渠道", en: "Testing all enabled channels started" },
  channel_test_all_running: { zh: "渠道测试正在进行中", en: "Channel testing is already running" },
  channel_name_required: { zh: "渠道名称不能为空", en: "The channel name cannot be empty" },
  channel_key_required: { zh: "渠道密钥不能为空", en: "The channel key cannot be empty" },
  // {detail}: what the type's adapter found wrong (English), with the line number when the field holds several keys
  channel_key_format: { zh: "该渠道类型的密钥格式应为 {format}：{detail}", en: "The key of this channel type must look like {format}: {detail}" },
  channel_too_many_keys: { zh: "一个渠道最多 1000 个密钥", en: "A channel holds at most 1000 keys" },
  channel_key_multiline: { zh: "多密钥渠道的每个密钥必须在一行内", en: "Each key of a multi-key channel must fit on one line" },
  channel_not_multi_key: { zh: "该渠道不是多密钥渠道", en: "This channel is not a multi-key channel" },
  channel_key_index_invalid: { zh: "该渠道没有这个密钥序号", en: "This channel has no key with that index" },
  channel_last_key: { zh: "不能删除渠道的最后一个密钥", en: "The last key of a channel cannot be deleted" },
  channel_busy: { zh: "渠道正被同时修改，请稍后重试", en: "The channel is being changed at the same time, please try again" },
  channel_models_required: { zh: "渠道模型不能为空", en: "The channel models cannot be empty" },
  channel_model_mapping_invalid: { zh: "模型重定向不是合法的 JSON 对象", en: "The model mapping is not a valid JSON object" },
  channel_setting_invalid: { zh: "渠道额外设置不是合法的 JSON 对象", en: "The channel setting is not a valid JSON object" },
  channel_status_code_mapping_invalid: { zh: "状态码复写不是合法的 JSON 对象", en: "The status code mapping is not a valid JSON object" },
  priority_must_be_integer: { zh: "优先级必须是整数", en: "Priority must be an integer" },
  weight_must_be_non_negative: { zh: "权重必须是非负整数", en: "Weight must be a non-negative integer" },
  select_channels_first: { zh: "请先选择渠道", en: "Please choose channels first" },
  tag_required: { zh: "标签不能为空", en: "The tag cannot be empty" },
  balance_not_supported: { zh: "该渠道类型暂不支持查询余额", en: "Balance query is not supported for this channel type" },
  models_fetch_not_supported: { zh: "该渠道类型不支持获取模型列表", en: "Fetching the model list is not supported for this channel type" },
  upstream_request_failed: { zh: "请求上游失败：{detail}", en: "The upstream request failed: {detail}" },
  // the outbound policy (lib/net/outbound.ts, docs/outbound.md): one key per refusal reason
  outbound_loopback: {
    zh: "上游地址是本机回环地址，需超级管理员开启 fetch_setting.allow_private_ip 后才能访问",
    en: "The upstream address is a loopback address; it is allowed only when the root user turns on fetch_setting.allow_private_ip",
  },
  outbound_private: {
    zh: "上游地址是内网地址，需超级管理员开启 fetch_setting.allow_private_ip 后才能访问",
    en: "The upstream address is a private network address; it is allowed only when the root user turns on fetch_setting.allow_private_ip",
  },
  // a user-given address (a webhook): the option does not apply to it
  outbound_user_loopback: {
    zh: "该地址是本机回环地址，用户提供的地址不允许访问",
    en: "The address is a loopback address, which a user-given URL may never reach",
  },
  outbound_user_private: {
    zh: "该地址是内网地址，用户提供的地址不允许访问",
    en: "The address is a private network address, which a user-given URL may never reach",
  },
  outbound_link_local: { zh: "上游地址是链路本地地址，不允许访问", en: "The upstream address is a link-local address, which is never allowed" },
  outbound_metadata: { zh: "上游地址是云服务器元数据地址，不允许访问", en: "The upstream address is a cloud metadata address, which is never allowed" },
  outbound_unspecified: {
    zh: "上游地址是未指定地址（0.0.0.0 或 ::），不允许访问",
    en: "The upstream address is an unspecified address (0.0.0.0 or ::), which is never allowed",
  },
  outbound_multicast: { zh: "上游地址是组播地址，不允许访问", en: "The upstream address is a multicast address, which is never allowed" },
  outbound_broadcast: { zh: "上游地址是广播地址，不允许访问", en: "The upstream address is a broadcast address, which is never allowed" },
  outbound_reserved: { zh: "上游地址属于保留地址段，不允许访问", en: "The upstream address is in a reserved range, which is never allowed" },
  outbound_bad_url: { zh: "上游地址不是有效的 http 或 https 地址", en: "The upstream URL is not a valid http or https URL" },
  outbound_too_many_redirects: { zh: "上游重定向次数过多", en: "The upstream redirected too many times" },
  channel_test_not_available: { zh: "渠道测试尚未接入", en: "Channel testing is not available yet" },
  token_name_required: { zh: "令牌名称不能为空", en: "The token name cannot be empty" },
  token_name_too_long: { zh: "令牌名称过长", en: "The token name is too long" },
  token_not_found: { zh: "令牌不存在", en: "Token not found" },
  token_expiry_invalid: { zh: "过期时间格式错误！", en: "The expiry time format is wrong" },
  token_expiry_past: { zh: "过期时间不能早于当前时间", en: "The expiry time must be in the future" },
  token_batch_count_invalid: { zh: "批量创建数量必须在 1 到 100 之间", en: "The batch count must be between 1 and 100" },
  token_quota_negative: { zh: "额度不能为负数", en: "The quota cannot be negative" },
  token_group_not_usable: { zh: "无权使用分组 {group}", en: "You may not use the group {group}" },
  token_expired_cannot_enable: {
    zh: "令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期",
    en: "The token has expired and cannot be enabled; change its expiry time or make it never expire first",
  },
  token_exhausted_cannot_enable: {
    zh: "令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度",
    en: "The token's quota is exhausted and it cannot be enabled; raise its remaining quota or make it unlimited first",
  },
  token_model_not_allowed: { zh: "该令牌无权访问模型 {model}", en: "This token may not access the model {model}" },
  token_ip_not_allowed: { zh: "您的 IP 不在令牌允许访问的列表中", en: "Your IP address is not in the token's allowed list" },
  token_rate_limited: {
    zh: "您已达到请求数限制：{minutes}分钟内最多请求{count}次",
    en: "You reached the request limit: at most {count} requests in {minutes} minutes",
  },
  model_rate_limited: {
    zh: "您已达到请求数限制：{minutes}分钟内最多请求{count}次",
    en: "You reached the request limit: at most {count} requests in {minutes} minutes",
  },
  // usage limits (lib/limits, docs/usage-limits.md): which limit, and when it frees
  usage_limit_token_rpm: {
    zh: "令牌已达到每分钟请求数上限（RPM {max}），{seconds} 秒后（{reset}）恢复",
    en: "The token reached its requests-per-minute limit (RPM {max}); it frees in {seconds} s ({reset})",
  },
  usage_limit_token_tpm: {
    zh: "令牌已达到每分钟 token 数上限（TPM {max}），{seconds} 秒后（{reset}）恢复",
    en: "The token reached its tokens-per-minute limit (TPM {max}); it frees in {seconds} s ({reset})",
  },
  usage_limit_token_concurrency: {
    zh: "令牌已达到并发请求数上限（{max}），当前有调用结束后恢复",
    en: "The token reached its concurrency limit ({max} calls in flight); it frees when a call in flight ends",
  },
  usage_limit_token_quota_5h: {
    zh: "令牌已达到5 小时额度上限（{max}），{seconds} 秒后（{reset}）恢复",
    en: "The token reached its 5-hour quota ({max}); it frees in {seconds} s ({reset})",
  },
  usage_limit_token_quota_day: {
    zh: "令牌已达到每日额度上限（{max}），{seconds} 秒后（{reset}）恢复",
    en: "The token reached its daily quota ({max}); it frees in {seconds} s ({reset})",
  },
  usage_limit_token_quota_week: {
    zh: "令牌已达到每周额度上限（{max}），{seconds} 秒后（{reset}）恢复",
    en: "The token reached its weekly quota ({max}); it frees in {seconds} s ({reset})",
  },
  usage_limit_token_quota_month: {
    zh: "令牌已达到每月额度上限（{max}），{seconds} 秒后（{reset}）恢复",
    en: "The token reached its monthly quota ({max}); it frees in {seconds} s ({reset})",
  },
  usage_limit_user_rpm: {
    zh: "用户已达到每分钟请求数上限（RPM {max}），{seconds} 秒后（{reset}）恢复",
    en: "The user reached its requests-per-minute limit (RPM {max}); it frees in {seconds} s ({reset})",
  },
  usage_limit_user_tpm: {
    zh: "用户已达到每分钟 token 数上限（TPM {max}），{seconds} 秒后（{reset}）恢复",
    en: "The user reached its tokens-per-minute limit (TPM {max}); it frees in {seconds} s ({reset})",
  },
  usage_limit_user_concurrency: {
    zh: "用户已达到并发请求数上限（{max}），当前有调用结束后恢复",
    en: "The user reached its concurrency limit ({max} calls in flight); it frees when a call in flight ends",
  },
  usage_limit_user_quota_5h: {
    zh: "用户已达到5 小时额度上限（{max}），{seconds} 秒后（{reset}）恢复",
    en: "The user reached its 5-hour quota ({max}); it frees in {seconds} s ({reset})",
  },
  usage_limit_user_quota_day: {
    zh: "用户已达到每日额度上限（{max}），{seconds} 秒后（{reset}）恢复",
    en: "The user reached its daily quota ({max}); it frees in {seconds} s ({reset})",
  },
  usage_limit_user_quota_week: {
    zh: "用户已达到每周额度上限（{max}），{seconds} 秒后（{reset}）恢复",
    en: "The user reached its weekly quota ({max}); it frees in {seconds} s ({reset})",
  },
  usage_limit_user_quota_month: {
    zh: "用户已达到每月额度上限（{max}），{seconds} 秒后（{reset}）恢复",
    en: "The user reached its monthly quota ({max}); it frees in {seconds} s ({reset})",
  },
  model_price_not_set: {
    zh: "模型 {model} 倍率或价格未配置，请联系管理员设置或开始自用模式",
    en: "The price or ratio of model {model} is not set; ask the admin to set it or enable self-use mode",
  },
  log_target_required: { zh: "请选择日志时间", en: "Please select the log time" },
  log_page_too_deep: {
    zh: "页码过深：最多翻到第 {max} 条记录，请缩小时间范围或添加筛选条件查看更早的日志",
    en: "The page is too deep: pages reach the first {max} rows; narrow the time range or add a filter to see older logs",
  },

  // model mapping (virtual models, lib/model-mapping/schema.ts)
  body_key_reserved: { zh: "请求中的名称不能是 __proto__", en: "A name in the request cannot be __proto__" },
  mapping_virtual_name_reserved: { zh: "虚拟模型名称不能是 __proto__", en: "A virtual model cannot be named __proto__" },
  mapping_virtual_name_required: { zh: "虚拟模型名称不能为空", en: "The virtual model name is required" },
  mapping_virtual_name_exists: { zh: "虚拟模型名称已存在：{name}", en: "Virtual model name already exists: {name}" },
  mapping_actual_models_required: { zh: "至少需要一个实际模型", en: "At least one actual model is required" },
  mapping_actual_model_required: { zh: "实际模型名称不能为空", en: "The actual model name is required" },
  mapping_actual_model_repeated: {
    zh: "同一映射中的实际模型不能重复：{name} 中的 {model}",
    en: "Actual model names must not repeat within a mapping: {model} in {name}",
  },
  mapping_priorities_invalid: { zh: "优先级必须是大于或等于 0 的整数", en: "Priorities must be integers of at least 0" },
  mapping_maps_to_itself: { zh: "虚拟模型 {name} 不能映射到自身", en: "The virtual model {name} cannot map to itself" },
  mapping_too_many: { zh: "模型映射最多包含 1000 个虚拟模型", en: "A model mapping holds at most 1000 virtual models" },
  mapping_saved: { zh: "模型映射已保存", en: "Model mapping saved" },
  mapping_reloaded: { zh: "已从数据库重新加载模型映射", en: "Model mapping reloaded from the database" },
  // redemption codes and redeeming (lib/redemptions, docs/redemptions.md)
  redemption_name_length: { zh: "兑换码名称长度必须在 1-20 之间", en: "The code name must be 1 to 20 characters long" },
  redemption_count_invalid: { zh: "一次生成的兑换码个数必须在 1-100 之间", en: "The number of codes must be between 1 and 100" },
  redemption_quota_invalid: { zh: "额度必须是正整数", en: "The quota must be a positive integer" },
  redemption_time_invalid: { zh: "生效时间或过期时间无效", en: "The effective or expiry time is invalid" },
  redemption_valid_range: { zh: "生效时间必须早于过期时间", en: "The effective time must be earlier than the expiry time" },
  redemption_max_uses_invalid: { zh: "最大使用次数必须是 -1（不限）或正整数", en: "Max uses must be -1 (unlimited) or a positive integer" },
  redemption_max_uses_below_used: { zh: "最大使用次数不能少于已使用次数（{used}）", en: "Max uses cannot be below the uses already made ({used})" },
  redemption_key_invalid: {
    zh: "自定义兑换码必须是 8-64 位字母、数字、- 或 _",
    en: "A custom code must be 8 to 64 letters, digits, - or _",
  },
  redemption_key_single: { zh: "指定兑换码时只能生成 1 个", en: "A custom code creates exactly one code" },
  redemption_key_exists: { zh: "该兑换码已存在", en: "This code already exists" },
  redemption_edit_not_unused: { zh: "只有未使用的兑换码可以编辑", en: "Only an unused code can be edited" },
  redemption_used_cannot_change: { zh: "已使用的兑换码不能启用或禁用", en: "A used code cannot be enabled or disabled" },
  redemption_select_first: { zh: "请先选择兑换码", en: "Select codes first" },
  redemption_name_blank: { zh: "请输入要删除的兑换码名称", en: "Enter the name of the codes to delete" },
  redeem_code_required: { zh: "请输入兑换码", en: "Please enter a code" },
  redemption_not_yet_valid: { zh: "该兑换码尚未生效", en: "This code is not valid yet" },
  redemption_expired: { zh: "该兑换码已过期", en: "This code has expired" },
  redemption_gift_already: { zh: "你已经兑换过这个礼品码", en: "You have already redeemed this gift code" },

  // online top-up (lib/payments, docs/payments.md)
  topup_disabled: { zh: "管理员未开启在线充值", en: "The admin has turned off online top-up" },
  topup_amount_min: { zh: "充值金额不能小于 ${min}", en: "The top-up amount cannot be less than ${min}" },
  topup_payment_failed: { zh: "拉起支付失败", en: "Payment request failed" },
  topup_too_many_pending: {
    zh: "一小时内未支付的订单已达 {max} 个，请先完成或等待后再试",
    en: "You have {max} unpaid orders from the last hour; pay one or try again later",
  },
  topup_order_not_found: { zh: "订单不存在", en: "The order does not exist" },
  topup_order_not_pending: { zh: "订单不是待支付状态", en: "The order is not pending" },
  topup_completed: { zh: "订单已完成，额度已到账", en: "Order completed, the quota was credited" },
  topup_already_completed: { zh: "订单此前已完成，未重复入账", en: "The order was already completed; nothing was credited again" },

  // mail: codes, binding, password reset, test mail (docs/mail.md, docs/accounts-api.md)
  email_code_sent: { zh: "验证码发送成功，请检查你的邮箱", en: "Verification code sent, check your mailbox" },
  email_bound: { zh: "邮箱账户绑定成功", en: "Email bound" },
  email_domain_not_allowed: {
    zh: "管理员启用了邮箱域名白名单，你的邮箱地址的域名不在白名单中",
    en: "The admin allows only whitelisted email domains; the domain of your address is not on the list",
  },
  email_alias_not_allowed: {
    zh: "管理员启用了邮箱地址别名限制，该地址是别名（含 + 号）或已有地址的变体",
    en: "The admin does not allow email aliases; this address uses + or is a variant of an existing address",
  },
  reset_link_invalid: { zh: "重置链接非法或已过期", en: "The reset link is invalid or has expired" },
  reset_mail_sent: {
    zh: "如果该邮箱已注册，重置邮件将在几分钟内送达，请检查你的邮箱",
    en: "If this address is registered, a reset mail is on its way; check your mailbox",
  },
  reset_needs_server_address: {
    zh: "管理员尚未设置服务器地址，无法发送重置链接",
    en: "The admin has not set the server address, so no reset link can be sent",
  },
  test_mail_sent: { zh: "测试邮件已发送至 {to}", en: "Test mail sent to {to}" },
  test_mail_no_address: {
    zh: "你的账户没有绑定邮箱，请填写收件地址",
    en: "Your account has no email address; enter an address to send to",
  },
  // ---- relay options (issue 13, docs/relay-options.md) ----
  relay_sensitive_refused: {
    zh: "请求内容包含本站不允许的敏感词，已被拒绝",
    en: "The request was refused: its content contains words this site does not allow",
  },
  relay_browser_extension_refused: {
    zh: "本站不接受来自浏览器扩展的调用",
    en: "This site does not accept calls made from browser extensions",
  },
  // inbox and admin messages (docs/messages.md)
  message_not_found: { zh: "消息不存在", en: "The message does not exist" },
  message_title_blank: { zh: "标题不能为空", en: "The title cannot be empty" },
  message_title_too_long: { zh: "标题最多 200 个字符", en: "The title can have at most 200 characters" },
  message_content_required: { zh: "内容不能为空", en: "The content cannot be empty" },
  message_content_too_long: { zh: "内容最多 65536 个字符", en: "The content can have at most 65536 characters" },
  message_recipients_required: { zh: "请至少选择一个接收用户", en: "Choose at least one recipient" },
  message_recipients_too_many: { zh: "一次最多发送给 50000 个用户", en: "A message can go to at most 50000 users at once" },
  message_recipients_unknown: { zh: "接收用户不存在：{ids}", en: "These recipients do not exist: {ids}" },
  // the data dashboard (docs/dashboard.md)
  data_export_disabled: { zh: "管理员未开启数据看板", en: "The admin has not enabled the data dashboard" },
  data_range_invalid: { zh: "结束时间不能早于开始时间", en: "The end time cannot be earlier than the start time" },
  data_time_zone_invalid: { zh: "未知的时区", en: "Unknown time zone" },
  data_range_too_long: { zh: "时间范围不能超过 {days} 天", en: "The time range cannot exceed {days} days" },
  // ---- the task relay: Midjourney, Suno, video (docs/tasks.md) ----
  task_not_found: { zh: "任务不存在", en: "Task not found" },
  task_not_succeeded: { zh: "任务状态不是成功，不能执行此操作", en: "The task has not succeeded; this action is refused" },
  task_upstream_unreachable: { zh: "上游服务调用失败，请稍后重试", en: "The upstream could not be reached; please try again later" },
  drawing_disabled: { zh: "绘图功能已关闭", en: "Drawing is disabled" },
  task_disabled: { zh: "异步任务功能已关闭", en: "Asynchronous tasks are disabled" },
  // Third-party sign-in and binding (docs/oauth.md)
  oauth_state_invalid: {
    zh: "登录状态无效或已过期，请重新发起登录",
    en: "The sign-in state is invalid or has expired; start the sign-in again",
  },
  oauth_provider_disabled: { zh: "管理员未开启通过该方式登录以及注册", en: "The admin has not enabled sign-in and sign-up through this provider" },
  oauth_needs_server_address: {
    zh: "管理员尚未设置服务器地址，无法使用第三方登录",
    en: "The admin has not set the server address, so third-party sign-in cannot be used",
  },
  oauth_exchange_failed: { zh: "无法向第三方换取授权，请稍后重试", en: "The provider did not accept the authorization; try again later" },
  oauth_userinfo_failed: { zh: "无法从第三方读取用户信息，请稍后重试", en: "The user's details could not be read from the provider; try again later" },
  oauth_already_bound: { zh: "该第三方账户已被其他用户绑定", en: "This third-party account is already bound to another user" },
  oauth_account_deregistered: { zh: "该第三方账户绑定的用户已注销", en: "The user bound to this third-party account has been deregistered" },
  oauth_account_inactive: { zh: "该第三方账户未激活或已被禁言", en: "This third-party account is not active or is silenced" },
  oauth_trust_level_low: {
    zh: "信任等级 {level} 低于管理员要求的最低信任等级 {minimum}",
    en: "Trust level {level} is below the minimum trust level {minimum} the admin requires",
  },
  oauth_bound: { zh: "绑定成功", en: "Bound" },
  oauth_binding_cleared: { zh: "已解除绑定", en: "Binding cleared" },
  oidc_config_failed: {
    zh: "获取 OIDC 配置失败，请检查网络和 Well-Known URL",
    en: "Failed to fetch the OIDC configuration; check the network and the Well-Known URL",
  },
  oidc_token_invalid: { zh: "OIDC 身份令牌校验失败", en: "The OIDC ID token failed validation" },
  wechat_server_failed: { zh: "无法连接微信服务器，请联系管理员", en: "The WeChat server cannot be reached; contact the admin" },
  wechat_code_invalid: { zh: "验证码错误或已过期", en: "The verification code is wrong or has expired" },
  telegram_auth_invalid: { zh: "Telegram 登录数据校验失败", en: "The Telegram sign-in data failed verification" },
  telegram_auth_expired: { zh: "Telegram 登录数据已过期，请重新登录", en: "The Telegram sign-in data has expired; sign in again" },
  telegram_auth_used: { zh: "该 Telegram 登录数据已使用过，请重新登录", en: "This Telegram sign-in data has already been used; sign in again" },
  // two-factor authentication and passkeys (docs/two-factor.md)
  twofa_enter_code: { zh: "请输入两步验证码", en: "Enter your two-factor code" },
  twofa_code_invalid: { zh: "验证码错误或已使用", en: "The code is wrong or has already been used" },
  twofa_code_format: { zh: "请输入 6 位验证码或备用码", en: "Enter the 6-digit code or a backup code" },
  twofa_too_many_attempts: { zh: "验证尝试次数过多，请稍后再试", en: "Too many attempts; try again later" },
  twofa_login_expired: { zh: "登录验证已过期，请重新输入用户名和密码", en: "The sign-in step has expired; enter your username and password again" },
  twofa_already_enabled: { zh: "两步验证已启用", en: "Two-factor authentication is already on" },
  twofa_not_enabled: { zh: "两步验证未启用", en: "Two-factor authentication is not on" },
  twofa_setup_missing: { zh: "请先开始设置两步验证", en: "Start the two-factor setup first" },
  twofa_fresh_required: {
    zh: "此操作需要先完成两步验证（验证码或通行密钥）",
    en: "This action needs a fresh second factor (a code or a passkey) first",
  },
  twofa_enabled: { zh: "两步验证已启用", en: "Two-factor authentication is on" },
  twofa_disabled: { zh: "两步验证已关闭", en: "Two-factor authentication is off" },
  twofa_reset_done: { zh: "已重置该用户的两步验证和通行密钥", en: "The user's two-factor authentication and passkeys were reset" },
  passkey_login_disabled: { zh: "管理员未开启通行密钥登录", en: "The admin has not turned on passkey sign-in" },
  passkey_failed: { zh: "通行密钥验证失败", en: "The passkey check failed" },
  passkey_unknown: { zh: "该通行密钥未注册", en: "This passkey is not registered" },
  passkey_needs_server_address: {
    zh: "管理员尚未设置服务器地址，无法使用通行密钥",
    en: "The admin has not set the server address, so passkeys cannot be used",
  },
  passkey_limit: { zh: "最多可注册 {max} 个通行密钥", en: "At most {max} passkeys can be registered" },
  passkey_not_found: { zh: "通行密钥不存在", en: "Passkey not found" },
  // subscription plans (lib/plans, docs/plans.md)
  plan_not_found: { zh: "套餐不存在", en: "The plan does not exist" },
  plan_not_for_sale: { zh: "该套餐未上架", en: "This plan is not for sale" },
  plan_not_wallet_purchasable: { zh: "该套餐不能用余额购买", en: "This plan cannot be bought with the balance" },
  plan_max_per_user: { zh: "该套餐每人最多购买 {max} 次", en: "This plan can be bought at most {max} times per user" },
  plan_no_stripe_price: { zh: "该套餐未配置 Stripe 价格，不能通过 Stripe 购买", en: "This plan has no Stripe price and cannot be bought through Stripe" },
  plan_purchased: { zh: "套餐已开通", en: "The plan is active" },
  plan_subscription_not_found: { zh: "订阅不存在", en: "The subscription does not exist" },
  plan_subscription_not_active: { zh: "该订阅不在生效中", en: "This subscription is not active" },
  plan_not_renewing: { zh: "该订阅不会自动续费，无需取消", en: "This subscription does not renew: there is nothing to cancel" },
  plan_cancel_failed: { zh: "取消续费失败，请稍后再试", en: "The renewal could not be cancelled, please try again later" },
  plan_exhausted: {
    zh: "套餐“{plan}”本周期额度已用完，将于 {reset} 重置",
    en: 'The plan "{plan}" has used up its quota for this period; it resets at {reset}',
  },
  // Sign-in by GET refused from another site (docs/oauth.md, "Cross-site requests")
  cross_site_refused: { zh: "拒绝来自其他站点的请求", en: "Cross-site request refused" },
} as const satisfies Record<string, Record<Locale, string>>;

export type MessageKey = keyof typeof serverMessages;
export type MessageParams = Record<string, string | number>;

export function renderMessage(locale: Locale, key: MessageKey, params?: MessageParams): string {
  const template: string = serverMessages[key][locale];
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
