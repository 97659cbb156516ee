/**
 * The CMS chatbot sample: {@link dev.workingmemory.samples.cms.CmsChatbot} replays seed 001's
 * "create a page … now add a hero section to it" conversation offline, or chats live with an OpenAI-compatible
 * model, over the in-memory CMS of {@link dev.workingmemory.samples.cms.CmsTools}.
 */
package dev.workingmemory.samples.cms;
