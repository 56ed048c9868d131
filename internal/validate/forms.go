package validate

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// The spec's contact subjects (section 3): the values the form sends.
var ContactSubjects = []string{"investment Inquiry", "Unsolved issue", "careers", "general Inquiry", "other"}

// The spec's waitlist programs (sections 3 and 9).
var Programs = []string{"Upcycling Initiative", "Wardrobe Clearance Program"}

// Upper bounds of the public forms' fields, in characters (Unicode code points).
const (
	MaxNameLength    = 100
	MaxEmailLength   = 254
	MaxPhoneLength   = 30
	MaxMessageLength = 5000
	// MinMessageLength is the spec's minimum message length after trimming.
	MinMessageLength = 10
)

// Contact is a Contact Us form as the app sends it (spec section 7, call 1).
type Contact struct {
	FirstName   string `json:"firstName"`
	LastName    string `json:"lastName"`
	Email       string `json:"email"`
	PhoneNumber string `json:"phoneNumber"`
	Subject     string `json:"subject"`
	Message     string `json:"message" text:"multiline"`
	// Website is the form's hidden bot trap: people leave it empty, and no
	// rule checks it; the server drops a message that fills it.
	Website string `json:"website"`
}

// Waitlist is a waitlist sign-up as the app sends it (spec section 7, call 2).
type Waitlist struct {
	Email       string `json:"email"`
	ProgramName string `json:"programName"`
}

// tooLong reports whether the trimmed s has more than max characters.
func tooLong(s string, max int) bool { return utf8.RuneCountInString(strings.TrimSpace(s)) > max }

// checkEmail adds the e-mail rules (required, shape, length) to errs.
func checkEmail(errs Errors, email string) {
	switch {
	case Blank(email):
		errs["email"] = "Email is required"
	case tooLong(email, MaxEmailLength):
		errs["email"] = "Email must be at most 254 characters"
	case !Email(email):
		errs["email"] = "Please enter a valid email"
	}
}

// CheckContact returns the spec's errors for a contact form (section 5) plus
// the upper bounds and the phone rule of every form (ZambianPhone; the
// phone is optional here); an empty result means valid.
func CheckContact(c Contact) Errors {
	errs := Errors{}
	switch {
	case Blank(c.FirstName):
		errs["firstName"] = "First name is required"
	case tooLong(c.FirstName, MaxNameLength):
		errs["firstName"] = "First name must be at most 100 characters"
	}
	switch {
	case Blank(c.LastName):
		errs["lastName"] = "Last name is required"
	case tooLong(c.LastName, MaxNameLength):
		errs["lastName"] = "Last name must be at most 100 characters"
	}
	checkEmail(errs, c.Email)
	switch {
	case tooLong(c.PhoneNumber, MaxPhoneLength):
		errs["phoneNumber"] = "Phone number must be at most 30 characters"
	case !Blank(c.PhoneNumber):
		if _, ok := ZambianPhone(c.PhoneNumber); !ok {
			errs["phoneNumber"] = MsgPhoneFormat
		}
	}
	switch {
	case Blank(c.Subject):
		errs["subject"] = "Please select a subject"
	case !slices.Contains(ContactSubjects, c.Subject):
		errs["subject"] = "Please select one of the listed subjects"
	}
	msg := strings.TrimSpace(c.Message)
	switch n := utf8.RuneCountInString(msg); {
	case n == 0:
		errs["message"] = "Message is required"
	case n < MinMessageLength:
		errs["message"] = "Message should be at least 10 characters"
	case n > MaxMessageLength:
		errs["message"] = "Message must be at most 5000 characters"
	}
	return errs
}

// CheckWaitlist returns the errors of a waitlist sign-up; an empty result means valid.
func CheckWaitlist(w Waitlist) Errors {
	errs := Errors{}
	checkEmail(errs, w.Email)
	if !slices.Contains(Programs, w.ProgramName) {
		errs["programName"] = "Please choose a waitlist: Upcycling Initiative or Wardrobe Clearance Program"
	}
	return errs
}

// ContactSubjectLabel is the label the form shows for a subject value.
func ContactSubjectLabel(value string) string {
	labels := []string{"Investment Inquiry", "Unsolved Issue", "Careers", "General Inquiry", "Other"}
	for i, v := range ContactSubjects {
		if v == value {
			return labels[i]
		}
	}
	return value
}
