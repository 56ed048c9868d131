-- Contact form messages, a new e-mail address each: salaula's Edge
-- Function, or a record created in PocketBase's "contact_messages"
-- collection.
require "common"

writes {
  salaula = {"/functions/v1/contact-form-submit",
    '{"firstName":"Chanda","lastName":"Mwale","email":"%s","phoneNumber":"+260 977 123456",'
      .. '"subject":"general Inquiry","message":"When do you open in Lusaka? I have clothes to sell."}'},
  pocketbase = {"/api/collections/contact_messages/records",
    '{"first_name":"Chanda","last_name":"Mwale","email":"%s","phone_number":"+260 977 123456",'
      .. '"subject":"general Inquiry","message":"When do you open in Lusaka? I have clothes to sell."}'},
}
