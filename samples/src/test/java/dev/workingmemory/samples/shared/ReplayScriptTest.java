package dev.workingmemory.samples.shared;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.workingmemory.samples.cms.CmsChatbot;
import org.junit.jupiter.api.Test;
import dev.workingmemory.samples.cms.CmsChatbot;
import org.junit.jupiter.params.ParameterizedTest;
import dev.workingmemory.samples.cms.CmsChatbot;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplayScriptTest {

    @Test
    void should_load_the_recorded_conversation() {
        ReplayScript script = ReplayScript.load(CmsChatbot.REPLAY_RESOURCE);

        assertThat(script.memoryId()).isEqualTo("replay-user");
        assertThat(script.turns()).hasSizeGreaterThanOrEqualTo(4);
        assertThat(script.turns().get(1).user()).isEqualTo("Now add a hero section to it");
        assertThat(script.turns().get(1).model().get(0).arguments().get("pageId").asText())
                .as("the reference-resolution turn reads the page id from the block")
                .isEqualTo("{{page}}");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"memoryId\":\"m\",\"turns\":[]}",
            "{\"turns\":[{\"user\":\"hi\",\"model\":[{\"text\":\"hello\"}]}]}",
            "{\"memoryId\":\"m\",\"turns\":{}}",
            "{\"memoryId\":\"m\",\"turns\":[{\"model\":[{\"text\":\"hello\"}]}]}",
            "{\"memoryId\":\"m\",\"turns\":[{\"user\":\"hi\",\"model\":[]}]}",
            "{\"memoryId\":\"m\",\"turns\":[{\"user\":\"hi\",\"model\":[{\"tool\":\"t\",\"arguments\":{}}]}]}",
            "{\"memoryId\":\"m\",\"turns\":[{\"user\":\"hi\",\"model\":[{\"text\":\"a\"},{\"text\":\"b\"}]}]}",
            "{\"memoryId\":\"m\",\"turns\":[{\"user\":\"hi\",\"model\":[{\"tool\":\"t\",\"text\":\"b\"}]}]}",
            "{\"memoryId\":\"m\",\"turns\":[{\"user\":\"hi\",\"model\":[{\"tool\":\"t\",\"arguments\":\"x\"},{\"text\":\"b\"}]}]}"
    })
    void should_reject_a_malformed_script(String json) throws Exception {
        var root = new ObjectMapper().readTree(json);

        assertThatThrownBy(() -> ReplayScript.parse(root, "test")).isInstanceOf(IllegalArgumentException.class);
    }
}
