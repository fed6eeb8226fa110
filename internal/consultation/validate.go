package consultation

import (
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"telepath/internal/platform/apperr"
)

var (
	mobileRe   = regexp.MustCompile(`^(1[3-9]\d{9}|(0\d{2,3}-?)?\d{7,8})$`)
	pathNoRe   = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	idWeights  = [17]int{7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2}
	idCheckSum = "10X98765432"
)

// CheckIDCard validates a Chinese resident ID number (GB 11643): 18
// characters, a valid birth date in positions 7–14, and the check digit.
// It returns the birth date and whether the holder is male; a birth after
// now is not valid.
func CheckIDCard(id string, now time.Time) (birth time.Time, male bool, ok bool) {
	id = strings.ToUpper(strings.TrimSpace(id))
	if len(id) != 18 {
		return time.Time{}, false, false
	}
	sum := 0
	for i := 0; i < 17; i++ {
		c := id[i]
		if c < '0' || c > '9' {
			return time.Time{}, false, false
		}
		sum += int(c-'0') * idWeights[i]
	}
	if id[17] != idCheckSum[sum%11] {
		return time.Time{}, false, false
	}
	birth, err := time.Parse("20060102", id[6:14])
	if err != nil || birth.After(now) || birth.Year() < 1880 {
		return time.Time{}, false, false
	}
	return birth, (id[16]-'0')%2 == 1, true
}

// parseDate reads YYYY-MM-DD (or a date-time beginning with it).
func parseDate(s string) (time.Time, bool) {
	if len(s) >= 10 {
		if t, err := time.Parse("2006-01-02", s[:10]); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// validate applies spec 2 §5 to a registration. A draft checks only the
// formats of what is filled in; a full registration also requires the
// required fields and at least one complete specimen.
func (in *CaseInput) validate(draft bool, now time.Time) *apperr.Validation {
	var v apperr.Validation
	trim := func(p *string) { *p = strings.TrimSpace(*p) }
	for _, p := range []*string{&in.PathologyNumber, &in.OriginalPathologyNumber, &in.Name, &in.Age, &in.Phone,
		&in.IDNumber, &in.Birthday, &in.InspectionHospital, &in.InspectionDate} {
		trim(p)
	}
	if in.AgeUnit == "" {
		in.AgeUnit = "year"
	}
	if in.IDType == "" {
		in.IDType = "id_card"
	}
	if !draft {
		required := map[string]bool{
			"pathology_number": in.PathologyNumber == "", "original_pathology_number": in.OriginalPathologyNumber == "",
			"name": in.Name == "", "age": in.Age == "", "gender": in.Gender == "", "phone": in.Phone == "",
			"library_id": in.LibraryID == nil, "inspection_date": in.InspectionDate == "",
			"inspection_hospital": in.InspectionHospital == "", "center_id": in.CenterID == nil,
		}
		for _, f := range []string{"pathology_number", "original_pathology_number", "library_id", "name", "gender", "age",
			"phone", "inspection_hospital", "inspection_date", "center_id"} {
			if required[f] {
				v.Add(f, "field.required")
			}
		}
	}
	for field, val := range map[string]string{"pathology_number": in.PathologyNumber, "original_pathology_number": in.OriginalPathologyNumber} {
		if val != "" && !pathNoRe.MatchString(val) {
			v.Add(field, "case.pathology_chars")
		}
	}
	if in.Age != "" {
		n, err := strconv.Atoi(in.Age)
		limit := map[string]int{"year": 150, "month": 1800, "day": 60000}[in.AgeUnit]
		if err != nil || n < 0 || n > limit {
			v.Add("age", "case.age_numeric")
		}
	}
	if in.Phone != "" && !mobileRe.MatchString(in.Phone) {
		v.Add("phone", "case.phone_format")
	}
	var birthday time.Time
	if in.Birthday != "" {
		var ok bool
		if birthday, ok = parseDate(in.Birthday); !ok || birthday.After(now) {
			v.Add("birthday", "case.birthday_invalid")
		}
	}
	if in.IDNumber != "" {
		switch in.IDType {
		case "id_card":
			birth, _, ok := CheckIDCard(in.IDNumber, now)
			if !ok {
				v.Add("id_number", "case.id_number_invalid")
			} else if !birthday.IsZero() && !birth.Equal(birthday) {
				v.Add("birthday", "case.birthday_mismatch")
			}
		default:
			if utf8.RuneCountInString(in.IDNumber) < 5 {
				v.Add("id_number", "case.id_number_invalid")
			}
		}
	}
	if in.InspectionDate != "" {
		if d, ok := parseDate(in.InspectionDate); !ok || d.After(now.Add(24*time.Hour)) {
			v.Add("inspection_date", "case.date_invalid")
		}
	}
	in.validateSpecimens(&v, draft)
	in.validateAttachments(&v)
	return &v
}

func (in *CaseInput) validateSpecimens(v *apperr.Validation, draft bool) {
	if len(in.Specimens) == 0 {
		if !draft {
			v.Add("specimens", "case.need_specimen")
		}
		return
	}
	for i := range in.Specimens {
		s := &in.Specimens[i]
		s.Name = strings.TrimSpace(s.Name)
		if s.SpecimenType == "" {
			s.SpecimenType = "ex_specimen"
		}
		field := "specimens." + strconv.Itoa(i)
		if s.Name == "" && !draft {
			v.Add(field+".name", "case.specimen_name")
		}
		if len(s.Blocks) == 0 && !draft {
			v.Add(field+".blocks", "case.need_block")
		}
		for j := range s.Blocks {
			s.Blocks[j].Name = strings.TrimSpace(s.Blocks[j].Name)
			if s.Blocks[j].Name == "" && !draft {
				v.Add(field+".blocks."+strconv.Itoa(j)+".name", "case.block_name")
			}
		}
	}
}

func (in *CaseInput) validateAttachments(v *apperr.Validation) {
	fullBody := 0
	seen := map[int64]bool{}
	for _, a := range in.Attachments {
		if a.Type < AttachReport || a.Type > AttachSamplingGuidance {
			v.Add("attachments", "case.attachment_type")
		}
		if a.Type == AttachFullBodyImage {
			fullBody++
		}
		if seen[a.FileID] {
			v.Add("attachments", "case.attachment_twice")
		}
		seen[a.FileID] = true
	}
	if fullBody > 1 {
		v.Add("attachments", "case.one_full_body")
	}
}
