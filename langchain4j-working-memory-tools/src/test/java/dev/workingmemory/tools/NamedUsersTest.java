package dev.workingmemory.tools;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserName;
import dev.workingmemory.WorkingMemoryProvider;
import dev.workingmemory.crystal.MemoryHit;
import dev.workingmemory.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A conversation of several people ({@code @UserName}): what each said stays theirs in long-term memory. */
class NamedUsersTest {

    interface TeamAssistant {
        String chat(@MemoryId String room, @UserName String who, @dev.langchain4j.service.UserMessage String message);
    }

    @Test
    void should_find_what_one_person_said_in_a_room_of_several() {
        try (WorkingMemoryProvider memories = WorkingMemoryProvider.builder().maxMessages(2).build()) {
            ScriptedChatModel model = ScriptedChatModel.answering(request -> AiMessage.from("Noted."));
            TeamAssistant assistant = AiServices.builder(TeamAssistant.class).chatModel(model)
                    .chatMemoryProvider(memories).build();

            assistant.chat("release-room", "alice", "I moved the release to Friday.");
            assistant.chat("release-room", "bob", "Then QA starts on Thursday.");
            assistant.chat("release-room", "carol", "Fine by me.");

            List<MemoryHit> hits = memories.memory("release-room").search("what did alice say about the release", 3);
            assertThat(hits.get(0).text()).isEqualTo("user alice: I moved the release to Friday.\nassistant: Noted.");
            assertThat(hits).extracting(MemoryHit::text).anySatisfy(text -> assertThat(text).startsWith("user bob: "));
        }
    }
}
