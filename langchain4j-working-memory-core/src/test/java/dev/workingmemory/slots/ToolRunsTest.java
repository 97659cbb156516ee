package dev.workingmemory.slots;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ToolRunsTest {

    private static String call(String tool, String arguments) {
        return ToolRuns.call(ToolExecutionRequest.builder().id("c").name(tool).arguments(arguments).build());
    }

    @Test
    void should_name_one_call_whatever_its_spacing_and_key_order() {
        String call = call("run_tests", "{\"module\":\"core\",\"clean\":true,\"opts\":{\"b\":1,\"a\":[2,1]}}");

        assertThat(call("run_tests", "{ \"clean\" : true, \"opts\": {\"a\": [2, 1], \"b\": 1}, \"module\": \"core\" }"))
                .isEqualTo(call);
        assertThat(call("run_tests", "{\"module\":\"api\",\"clean\":true,\"opts\":{\"b\":1,\"a\":[2,1]}}"))
                .as("other arguments").isNotEqualTo(call);
        assertThat(call("run_tests", "{\"module\":\"core\",\"clean\":true,\"opts\":{\"b\":1,\"a\":[1,2]}}"))
                .as("a list in another order").isNotEqualTo(call);
        assertThat(call("build", "{\"module\":\"core\",\"clean\":true,\"opts\":{\"b\":1,\"a\":[2,1]}}"))
                .as("another tool").isNotEqualTo(call);
        assertThat(call("bash", "not json  ")).isEqualTo(call("bash", "not json")).hasSize(24);
        assertThat(ToolRuns.call(null)).isNull();
    }
}
