-- Waitlist sign-ups, a new e-mail address each: salaula's Edge Function,
-- or a record created in PocketBase's "waitlist" collection.
require "common"

writes {
  salaula = {"/functions/v1/waitlist-signup",
    '{"email":"%s","programName":"Upcycling Initiative","pagePath":"/upcycling"}'},
  pocketbase = {"/api/collections/waitlist/records",
    '{"email":"%s","program":"Upcycling Initiative","page_path":"/upcycling"}'},
}
