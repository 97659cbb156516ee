package dev.workingmemory.spring.app;

import dev.langchain4j.data.message.AiMessage;
import dev.workingmemory.testing.ScriptedChatModel;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application as its authors would write it: an {@code @AiService}, a tool and a chat model (scripted here), and
 * no memory code; the starter and its properties give it the working memory.
 */
@SpringBootApplication
public class CmsApplication {

    /** The model's answers, in order: create the page, then resolve "it" from the block and take a note. */
    @Bean
    ScriptedChatModel chatModel() {
        return ScriptedChatModel.script()
                .thenCallTool("createPage", "{\"title\":\"About Us\"}")
                .thenAnswer("Created About Us.")
                .then(request -> {
                    assertThat(ScriptedChatModel.systemText(request)).contains("\"About Us\" (page-123)");
                    return AiMessage.from(ScriptedChatModel.toolCall("addSection",
                            "{\"pageId\":\"page-123\",\"kind\":\"hero\"}"));
                })
                .thenCallTool("working_memory_note", "{\"note\":\"The About Us page has a hero section\"}")
                .thenAnswer("Added a hero section to About Us.");
    }
}
