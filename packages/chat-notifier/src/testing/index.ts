export { ChatFake, type ChatFakeOptions, type SentChatNotification } from './chat-fake.js';
export { RecordingTransport, type RecordedRequest, type Responder } from './recording-transport.js';
