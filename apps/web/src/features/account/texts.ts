// User-facing texts of the personal center, in one place.
export const CENTER_TEXTS = Object.freeze({
  profileCard: '个人信息',
  username: '用户名',
  nickName: '昵称',
  phone: '手机号码',
  email: '用户邮箱',
  gender: '性别',
  dept: '所属机构',
  roles: '角色',
  channel: '渠道',
  signInMethod: '登录方式',
  changeAvatar: '更换头像',
  avatarType: '头像只能是 PNG、JPEG 或 WebP 格式',
  avatarSize: '头像大小不能超过 2MB',
  avatarDone: '头像已更新',
  logout: '退出登录',

  profileTab: '用户资料',
  nickNameRequired: '请输入昵称',
  save: '保存',
  profileSaved: '资料已保存',
  male: '男',
  female: '女',

  passwordTab: '修改密码',
  oldPass: '旧密码',
  oldPassRequired: '请输入旧密码',
  newPass: '新密码',
  newPassRequired: '请输入新密码',
  changePassword: '修改密码',
  passwordChanged: '密码已修改',
  passwordChangedOthers: (n: number) => `密码已修改，已退出其他 ${n} 个设备`,

  loginsTab: '登录记录',
  time: '时间',
  ip: 'IP 地址',
  browser: '浏览器',
  method: '方式',
  result: '结果',
  success: '成功',
  failure: '失败',

  sessionsTab: '在线设备',
  createdAt: '登录时间',
  lastSeenAt: '最近活动',
  current: '当前设备',
  revokeOthers: '退出其他设备',
  revokeOthersConfirm: '确定让其他设备上的登录全部失效吗？',
  revokedOthers: (n: number) => (n ? `已退出 ${n} 个其他设备` : '没有其他在线设备'),
  ok: '确定',
  cancel: '取消',
});

export const METHOD_LABELS: Readonly<Record<string, string>> = Object.freeze({
  password: '账号密码',
  ca: '数字证书',
  handoff: '交接链接',
});

export const REASON_LABELS: Readonly<Record<string, string>> = Object.freeze({
  bad_password: '密码错误',
  unknown_user: '用户不存在',
  captcha: '验证码错误',
  locked: '账号已锁定',
  disabled: '账号已停用',
  ip_limited: '尝试次数过多',
  challenge: '挑战码无效',
  certificate: '证书无效',
  unbound: '证书未绑定',
  handoff: '交接令牌无效',
});

export const CHANNEL_LABELS: Readonly<Record<string, string>> = Object.freeze({
  staff: '内部员工',
  agent: '代理渠道',
  enterprise: '投保企业',
  service: '服务机构',
});
