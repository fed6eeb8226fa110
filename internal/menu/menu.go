// Package menu builds the navigation menu of the signed-in user from the
// screens that exist, per role (spec 1 §2, §3 Menu entry, §4 Menu building).
package menu

import (
	"context"
	"slices"

	"telepath/internal/platform/access"
	"telepath/internal/platform/httpx"
)

// Entry is a menu entry as the web app reads it (spec 1 §3).
type Entry struct {
	Name       string   `json:"name" doc:"Chinese name"`
	EnName     string   `json:"en_name"`
	Alias      string   `json:"alias" doc:"Screen key"`
	URI        string   `json:"uri"`
	RouteName  string   `json:"route_name"`
	IsShow     string   `json:"is_show" enum:"0,1"`
	IconPath   string   `json:"icon_path" doc:"antd icon component name"`
	Children   []*Entry `json:"children"`
	Count      string   `json:"count" doc:"Badge count key, empty for none"`
	CountColor string   `json:"count_color"`
	Index      int      `json:"index"`
	ActiveMenu string   `json:"active_menu"`
	Menu       bool     `json:"menu"`
	Header     bool     `json:"header"`
	roles      []string
}

func leaf(index int, name, en, uri, route, icon string, roles ...string) *Entry {
	return &Entry{Name: name, EnName: en, Alias: route, URI: uri, RouteName: route, IsShow: "1", IconPath: icon,
		Children: []*Entry{}, Index: index, Menu: true, Header: true, roles: roles}
}

// counted gives a menu entry a badge: the count of the named case-list tab.
func counted(e *Entry, key, colour string) *Entry {
	e.Count, e.CountColor = key, colour
	return e
}

func group(index int, name, en, uri, route, icon string, children ...*Entry) *Entry {
	e := leaf(index, name, en, uri, route, icon)
	e.Children = children
	for _, c := range children {
		for _, r := range c.roles {
			if !slices.Contains(e.roles, r) {
				e.roles = append(e.roles, r)
			}
		}
	}
	return e
}

// catalog holds the screens that exist. A screen joins the menu when it is
// finished, never before.
func catalog() []*Entry {
	return []*Entry{
		leaf(50, "工作台", "Dashboard", "/dashboard", "Dashboard", "DashboardOutlined", access.Expert),
		group(100, "会诊管理", "Consultation", "/case", "Case", "FileTextOutlined",
			counted(leaf(10, "病例管理", "Cases", "/case/manage", "CaseManage", "ProfileOutlined", access.Site), "unsubmitted", "#fa8c16"),
			leaf(20, "退回病例", "Returned cases", "/case/return", "CaseReturn", "RollbackOutlined", access.Site),
			leaf(30, "撤回病例", "Recalls", "/case/recall", "CaseRecall", "UndoOutlined", access.Site),
			leaf(35, "特检医嘱", "Special exam advice", "/case/advices", "CaseAdvices", "ExperimentOutlined", access.Site),
			leaf(38, "技术医嘱", "Technical advice", "/case/technical_advices", "CaseTechnicalAdvices", "ToolOutlined", access.Site),
			leaf(40, "收费管理", "Charges", "/case/charge", "CaseCharge", "MoneyCollectOutlined", access.Site),
			counted(leaf(45, "报告管理", "Reports", "/case/report", "CaseReport", "PrinterOutlined", access.Site, access.Publisher), "to_print", "#13c2c2"),
			leaf(50, "病例留言", "Case messages", "/case/message", "CaseMessage", "MessageOutlined", access.Site),
			// Spec 1 §2 Other roles: a clinician follows their own requests.
			leaf(60, "我的申请", "My requests", "/case/clinical", "CaseClinical", "SolutionOutlined", access.Clinical),
			// An uploader registers cases with their slides (the upload manager opens
			// from that screen) and follows each slide.
			leaf(70, "病例与切片", "Cases and slides", "/case/uploader", "CaseUploader", "PictureOutlined", access.Uploader),
		),
		group(150, "冰冻预约", "Frozen sections", "/frozen-case", "FrozenCase", "ThunderboltOutlined",
			leaf(10, "冰冻预约", "Book frozen sections", "/frozen-case/apply", "FrozenCaseApply", "ScheduleOutlined", access.Site, access.Clinical),
			leaf(20, "冰冻待办", "Frozen to do", "/frozen-case/todo", "FrozenCaseTodo", "FieldTimeOutlined", access.Site, access.Clinical),
		),
		group(250, "冰冻分配", "Frozen distribution", "/frozen-distribute", "FrozenDistribute", "ThunderboltOutlined",
			leaf(10, "预约确认", "Appointments to confirm", "/frozen-distribute/manage", "FrozenDistributeManage", "UserSwitchOutlined", access.Allocator),
			leaf(20, "已处理", "Handled", "/frozen-distribute/done", "FrozenDistributeDone", "CheckCircleOutlined", access.Allocator),
			leaf(30, "撤回预约", "Recalled appointments", "/frozen-distribute/recall", "FrozenDistributeRecall", "UndoOutlined", access.Allocator),
			leaf(40, "退回预约", "Returned appointments", "/frozen-distribute/return", "FrozenDistributeReturn", "RollbackOutlined", access.Allocator),
		),
		leaf(260, "排班管理", "Duty schedule", "/schedule/duty", "ScheduleDuty", "CalendarOutlined", access.Allocator, access.CenterAdmin),
		group(200, "分配管理", "Distribution", "/distribute", "Distribute", "DeploymentUnitOutlined",
			counted(leaf(10, "病例分配", "Assign cases", "/distribute/manage", "DistributeManage", "UserSwitchOutlined", access.Allocator), "to_allot", "#722ed1"),
			counted(leaf(20, "撤回审核", "Recall requests", "/distribute/recall", "DistributeRecall", "UndoOutlined", access.Allocator), "recall_pending", "#faad14"),
			leaf(30, "退回病例", "Returned cases", "/distribute/return", "DistributeReturn", "RollbackOutlined", access.Allocator),
		),
		group(300, "诊断管理", "Diagnosis", "/admin/diagnosis", "AdminDiagnosis", "MedicineBoxOutlined",
			leaf(10, "会诊管理", "Consultations", "/admin/consultation-manage", "AdminConsultationManage", "FileSearchOutlined", access.Admin, access.CenterAdmin),
			leaf(30, "预约管理", "Appointments", "/admin/appointment-manage", "AdminAppointmentManage", "ScheduleOutlined", access.Admin, access.CenterAdmin),
			counted(leaf(20, "撤回审核", "Recall requests", "/admin/withdraw-manage", "AdminWithdrawManage", "UndoOutlined", access.Admin, access.CenterAdmin), "recall_pending", "#faad14"),
			leaf(40, "邀请管理", "Invitations", "/admin/invited-manage", "AdminInvitedManage", "MailOutlined", access.Admin, access.CenterAdmin),
			leaf(50, "通知管理", "Notices", "/admin/message-manage", "AdminMessageManage", "NotificationOutlined", access.Admin, access.CenterAdmin),
		),
		group(310, "诊断管理", "Diagnosis", "/diagnosis", "Diagnosis", "MedicineBoxOutlined",
			counted(leaf(10, "诊断管理", "My cases", "/diagnosis/manage", "DiagnosisManage", "FileSearchOutlined", access.Expert), "pending", "#1677ff"),
			// A technician's badge counts their open cases, whatever the expert's stage.
			counted(leaf(10, "诊断管理", "My cases", "/diagnosis/manage", "DiagnosisManage", "FileSearchOutlined", access.Staff), "submitted", "#1677ff"),
			leaf(20, "退回病例", "Returned cases", "/diagnosis/return", "DiagnosisReturn", "RollbackOutlined", access.Expert),
			counted(leaf(30, "会诊邀请", "Invitations to me", "/diagnosis/invited", "DiagnosisInvited", "MailOutlined", access.Expert), "invited", "#eb2f96"),
			leaf(40, "我的邀请", "Sent invitations", "/diagnosis/invite", "DiagnosisInvite", "SendOutlined", access.Expert),
		),
		leaf(305, "冰冻诊断", "Frozen cases", "/frozen-expert/manage", "FrozenExpertManage", "ThunderboltOutlined", access.Expert, access.Staff),
		leaf(320, "我的收藏", "Favourites", "/diagnosis/collect", "DiagnosisCollect", "StarOutlined", access.Expert),
		leaf(325, "我的分享", "My shares", "/share/list", "ShareList", "ShareAltOutlined", access.Expert, access.Admin),
		leaf(330, "第三方医嘱", "Third-party advice", "/third/addadvice", "ThirdAddAdvice", "ExperimentOutlined", access.Third),
		// Spec 1 §2 lists /borrow/manage for the center; the site sees it too,
		// to ask to borrow its cases' slides and blocks and follow its loans.
		leaf(340, "借阅归档", "Borrow and archive", "/borrow/manage", "BorrowManage", "ContainerOutlined", access.Admin, access.CenterAdmin, access.Site),
		group(600, "上传管理", "Uploads", "/dss", "Dss", "CloudUploadOutlined",
			leaf(10, "正在上传", "Uploading", "/dss/uploading", "DssUploading", "UploadOutlined", access.Site),
			leaf(20, "已上传", "Uploaded", "/dss/uploaded", "DssUploaded", "FolderOpenOutlined", access.Site),
			leaf(30, "上传设置", "Upload settings", "/dss/upload-setting", "DssUploadSetting", "SettingOutlined", access.Site),
		),
		leaf(700, "模板与术语", "Templates and terms", "/setting/diagnosisTemplate", "SettingDiagnosisTemplate", "SnippetsOutlined", access.Expert, access.Admin),
		group(800, "系统管理", "System", "/system", "System", "SettingOutlined",
			leaf(10, "中心管理", "Centers", "/department/manage", "DepartmentManage", "ApartmentOutlined", access.Admin),
			leaf(20, "医院管理", "Hospitals", "/site/manage", "SiteManage", "BankOutlined", access.Admin, access.CenterAdmin),
			leaf(25, "病理库管理", "Pathology libraries", "/bank/manage", "BankManage", "DatabaseOutlined", access.Admin),
			leaf(30, "用户管理", "Users", "/system/user", "SystemUser", "TeamOutlined", access.Admin, access.CenterAdmin),
			leaf(32, "管理员", "Administrators", "/admin/manage", "AdminManage", "SafetyCertificateOutlined", access.Admin),
			leaf(35, "试剂管理", "Reagents", "/setting/reagent", "SettingReagent", "ExperimentOutlined", access.Admin),
			leaf(40, "报告模板", "Report templates", "/setting/report", "SettingReport", "FileProtectOutlined", access.Admin),
			leaf(60, "收费项目", "Charge items", "/setting/chargeItem", "SettingChargeItem", "AccountBookOutlined", access.Admin, access.CenterAdmin),
			leaf(70, "诊断配置", "Diagnosis settings", "/setting/diagnosisConfig", "SettingDiagnosisConfig", "ControlOutlined", access.Admin, access.CenterAdmin),
			leaf(80, "超时配置", "Timeouts", "/setting/timeoutConfig", "SettingTimeoutConfig", "ClockCircleOutlined", access.Admin),
			leaf(85, "存储配置", "Storage", "/setting/storageConfig", "SettingStorageConfig", "HddOutlined", access.Admin),
			leaf(90, "系统配置", "System settings", "/setting/other-config", "SettingOtherConfig", "ToolOutlined", access.Admin),
			leaf(95, "质控指标", "QC targets", "/setting/qcConfig", "SettingQcConfig", "AimOutlined", access.Admin),
		),
		group(850, "统计分析", "Statistics", "/statistical", "Statistical", "BarChartOutlined",
			leaf(10, "会诊统计", "Consultations", "/statistical/consultation", "StatisticalConsultation", "LineChartOutlined", access.Admin, access.CenterAdmin, access.Site, access.Allocator, access.Expert),
			leaf(20, "病理库统计", "Pathology libraries", "/statistical/bank", "StatisticalBank", "DatabaseOutlined", access.Admin, access.CenterAdmin, access.Site, access.Allocator),
			leaf(30, "专家统计", "Experts", "/statistical/expert", "StatisticalExpert", "TeamOutlined", access.Admin, access.CenterAdmin, access.Allocator),
			leaf(35, "专家会诊统计", "Expert consultations", "/statistical/expert-consultation", "StatisticalExpertConsultation", "SolutionOutlined", access.Site, access.Allocator),
			leaf(40, "质量与及时率", "Quality and timeliness", "/statistical/quality", "StatisticalQuality", "FieldTimeOutlined", access.Admin, access.CenterAdmin, access.Expert, access.QCExpert),
			leaf(50, "HE切片质量", "HE slide quality", "/statistical/he", "StatisticalHe", "ExperimentOutlined", access.Admin, access.CenterAdmin, access.QCExpert),
			leaf(60, "院外统计", "Outside hospitals", "/statistical/outside", "StatisticalOutside", "GlobalOutlined", access.Admin, access.CenterAdmin, access.QCExpert),
			leaf(70, "诊断质量", "Diagnosis quality", "/statistical/diagnosis", "StatisticalDiagnosis", "SafetyCertificateOutlined", access.Admin, access.CenterAdmin, access.QCExpert),
		),
		// Every role has a message centre; its badge is the unread count.
		counted(leaf(880, "消息中心", "Messages", "/message/list", "MessageList", "BellOutlined", access.Roles...), "message_unread", "#f5222d"),
		leaf(900, "操作日志", "Operation log", "/log/operation", "LogOperation", "FileSearchOutlined", access.Admin),
		leaf(1000, "个人设置", "Account settings", "/account", "Account", "UserOutlined", access.Roles...),
	}
}

// Build returns the menu of a user holding roles: the entries of each role,
// merged, with children de-duplicated by route name and sorted by index.
// Root gets every role's menu.
func Build(roles []string) []*Entry {
	if slices.Contains(roles, access.Root) {
		roles = access.Roles
	}
	var out []*Entry
	for _, e := range catalog() {
		if m := forRoles(e, roles); m != nil {
			out = merge(out, m)
		}
	}
	sortEntries(out)
	return out
}

func forRoles(e *Entry, roles []string) *Entry {
	if !hasAny(e.roles, roles) {
		return nil
	}
	c := *e
	c.Children = []*Entry{}
	for _, ch := range e.Children {
		if m := forRoles(ch, roles); m != nil {
			c.Children = merge(c.Children, m)
		}
	}
	return &c
}

func merge(list []*Entry, e *Entry) []*Entry {
	for _, have := range list {
		if have.RouteName == e.RouteName {
			for _, ch := range e.Children {
				have.Children = merge(have.Children, ch)
			}
			return list
		}
	}
	return append(list, e)
}

func sortEntries(list []*Entry) {
	slices.SortStableFunc(list, func(a, b *Entry) int { return a.Index - b.Index })
	for _, e := range list {
		sortEntries(e.Children)
	}
}

func hasAny(have, want []string) bool {
	for _, w := range want {
		if slices.Contains(have, w) {
			return true
		}
	}
	return false
}

// Routes registers GET /api/menu.
func Routes(api *httpx.API) {
	api.Mount("Menu", []httpx.Route{
		{Method: "GET", Path: "/api/menu", Roles: access.Any, Handler: httpx.Result(mine), ID: "menu", Summary: "Menu tree of the signed-in user's roles"},
	})

}

// mine is the menu of the caller's roles.
func mine(ctx context.Context) ([]*Entry, error) { return Build(access.FromContext(ctx).Roles), nil }
