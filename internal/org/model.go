// Package org manages the organisations: consultation centers with their
// sub-centers, and the hospitals (sites) that send cases to them.
package org

import (
	"encoding/json"
	"time"
)

// Ref names an organisation.
type Ref struct {
	ID   int64  `json:"id" db:"id"`
	Name string `json:"name" db:"name"`
}

// Center is a consultation center; ParentID makes it a sub-center.
type Center struct {
	ID             int64     `json:"id" db:"id"`
	Name           string    `json:"name" db:"name"`
	Code           string    `json:"code" db:"code"`
	ParentID       *int64    `json:"parent_id" db:"parent_id"`
	ParentName     *string   `json:"parent_name" db:"parent_name"`
	Address        string    `json:"address" db:"address"`
	Phone          string    `json:"phone" db:"phone"`
	Contact        string    `json:"contact" db:"contact"`
	Remark         string    `json:"remark" db:"remark"`
	Status         int       `json:"status" db:"status" enum:"0,1"`
	HospitalCount  int       `json:"hospital_count" db:"hospital_count"`
	FrozenAmberMin int       `json:"frozen_amber_min" db:"frozen_amber_min" doc:"The frozen clock turns amber this many minutes after the slides arrived"`
	FrozenRedMin   int       `json:"frozen_red_min" db:"frozen_red_min" doc:"The frozen clock turns red this many minutes after the slides arrived"`
	CreatedAt      time.Time `json:"created_at" db:"created_at"`
	UpdatedAt      time.Time `json:"updated_at" db:"updated_at"`
}

// CenterInput is the editable part of a center.
type CenterInput struct {
	Name     string `json:"name,omitempty" maxLength:"100"`
	Code     string `json:"code,omitempty" maxLength:"50"`
	ParentID *int64 `json:"parent_id,omitempty"`
	Address  string `json:"address,omitempty" maxLength:"200"`
	Phone    string `json:"phone,omitempty" maxLength:"30"`
	Contact  string `json:"contact,omitempty" maxLength:"50"`
	Remark   string `json:"remark,omitempty" maxLength:"500"`
	Status   *int   `json:"status,omitempty" enum:"0,1"`
	// The frozen clock's thresholds in minutes (default 15 and 20).
	FrozenAmberMin *int `json:"frozen_amber_min,omitempty"`
	FrozenRedMin   *int `json:"frozen_red_min,omitempty"`
}

// Storage modes of a site's slides (spec 2 §3 Site info).
const (
	StorageNotEnabled = 0
	StorageNotLocal   = 1
	StorageForceLocal = 2
)

// Expert selection permission of a hospital (spec 2 §6).
const (
	ExpertCannotSelect = 0
	ExpertCanSelect    = 1
	ExpertMustSelect   = 2
)

// SiteInfo holds a site's integration settings (spec 2 §3 Site info).
type SiteInfo struct {
	HisName          string `json:"hisname"`
	HisPort          string `json:"hisport"`
	HisIP            string `json:"hisip"`
	IsLocalhost      int    `json:"islocalhost"`
	DirectExp        int    `json:"directexp"`
	ReportMode       string `json:"reportmode"`
	InterfaceMode    string `json:"interfacemode"`
	OrganizationCode string `json:"organizationcode"`
	NetworkProtocol  string `json:"network_protocol"`
	IsShowUnit       int    `json:"isshowunit"`
	Uploader         string `json:"uploader"`
	CaseInterface    string `json:"caseinterface"`
	ClsUse           int    `json:"clsuse"`
	UploadInterface  string `json:"uploadinterface"`
	UlsUse           int    `json:"ulsuse"`
	ReportInterface  string `json:"reportinterface"`
	IsTest           int    `json:"is_test"`
	RlsUse           int    `json:"rlsuse"`
	HisCode          string `json:"his_code"`
	UploadProtocol   string `json:"upload_protocol"`
	UploadHost       string `json:"upload_host"`
	UploadPort       int    `json:"upload_port"`
	MQHost           string `json:"mq_host"`
	MQPort           int    `json:"mq_port"`
	MonitorDir       string `json:"monitor_dir"`
}

// DefaultSiteInfo has the spec's defaults.
func DefaultSiteInfo() SiteInfo {
	return SiteInfo{NetworkProtocol: "http", UploadProtocol: "http", UploadHost: "localhost", UploadPort: 8001}
}

// Hospital is a site that registers cases.
type Hospital struct {
	ID              int64     `json:"id" db:"id"`
	Name            string    `json:"name" db:"name"`
	Abbreviation    string    `json:"abbreviation" db:"abbreviation"`
	Code            string    `json:"code" db:"code"`
	PublicIP        string    `json:"public_ip" db:"public_ip"`
	Port            int       `json:"port" db:"port"`
	Address         string    `json:"address" db:"address"`
	Phone           string    `json:"phone" db:"phone"`
	Contact         string    `json:"contact" db:"contact"`
	StorageMode     int       `json:"storage_mode" db:"storage_mode" enum:"0,1,2"`
	ExpertSelect    int       `json:"expert_select" db:"expert_select" enum:"0,1,2"`
	DefaultExpertID *int64    `json:"default_expert_id" db:"default_expert_id"`
	Status          int       `json:"status" db:"status" enum:"0,1"`
	SiteInfo        SiteInfo  `json:"site_info" db:"-"`
	SiteInfoJSON    string    `json:"-" db:"site_info"`
	CenterIDs       []int64   `json:"center_ids" db:"-"`
	Centers         []Ref     `json:"centers" db:"-"`
	CreatedAt       time.Time `json:"created_at" db:"created_at"`
	UpdatedAt       time.Time `json:"updated_at" db:"updated_at"`
}

// HospitalInput is the editable part of a hospital.
type HospitalInput struct {
	Name            string    `json:"name,omitempty" maxLength:"100"`
	Abbreviation    string    `json:"abbreviation,omitempty" maxLength:"50"`
	Code            string    `json:"code,omitempty" maxLength:"50" doc:"Site number"`
	PublicIP        string    `json:"public_ip,omitempty" maxLength:"64"`
	Port            int       `json:"port,omitempty"`
	Address         string    `json:"address,omitempty" maxLength:"200"`
	Phone           string    `json:"phone,omitempty" maxLength:"30"`
	Contact         string    `json:"contact,omitempty" maxLength:"50"`
	StorageMode     int       `json:"storage_mode,omitempty" enum:"0,1,2"`
	ExpertSelect    *int      `json:"expert_select,omitempty" enum:"0,1,2"`
	DefaultExpertID *int64    `json:"default_expert_id,omitempty"`
	Status          *int      `json:"status,omitempty" enum:"0,1"`
	SiteInfo        *SiteInfo `json:"site_info,omitempty"`
	CenterIDs       []int64   `json:"center_ids,omitempty" maxItems:"100"`
}

func (h *Hospital) decode() {
	h.SiteInfo = DefaultSiteInfo()
	if h.SiteInfoJSON != "" {
		_ = json.Unmarshal([]byte(h.SiteInfoJSON), &h.SiteInfo) // a corrupt value falls back to defaults
	}
}
