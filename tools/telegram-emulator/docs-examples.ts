// Updates copied verbatim from the Bot API documentation, for the emulator's tests and the plugin's:
// what a real server sends, so that both are checked against Telegram's own examples.

// https://core.telegram.org/bots/webhooks#testing-your-bot-with-updates, "Message with text".
export const DOCS_TEXT_UPDATE = {
  update_id: 10000,
  message: {
    date: 1441645532,
    chat: {
      last_name: 'Test Lastname',
      id: 1111111,
      type: 'private',
      first_name: 'Test Firstname',
      username: 'Testusername',
    },
    message_id: 1365,
    from: {
      last_name: 'Test Lastname',
      id: 1111111,
      first_name: 'Test Firstname',
      username: 'Testusername',
    },
    text: '/start',
  },
};

// The same page, "Message with a document".
export const DOCS_DOCUMENT_UPDATE = {
  update_id: 10000,
  message: {
    date: 1441645532,
    chat: {
      last_name: 'Test Lastname',
      type: 'private',
      id: 1111111,
      first_name: 'Test Firstname',
      username: 'Testusername',
    },
    message_id: 1365,
    from: {
      last_name: 'Test Lastname',
      id: 1111111,
      first_name: 'Test Firstname',
      username: 'Testusername',
    },
    document: {
      file_id: 'AwADBAADbXXXXXXXXXXXGBdhD2l6_XX',
      file_name: 'Testfile.pdf',
      mime_type: 'application/pdf',
      file_size: 536392,
    },
  },
};
