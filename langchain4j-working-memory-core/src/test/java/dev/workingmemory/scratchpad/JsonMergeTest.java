package dev.workingmemory.scratchpad;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class JsonMergeTest {

    private static ObjectNode json(String text) {
        return (ObjectNode) ScratchpadJson.parseOrNull(text);
    }

    private static ObjectNode merged(String target, String patch) {
        ObjectNode result = json(target);
        JsonMerge.merge(result, json(patch));
        return result;
    }

    @Test
    void should_merge_nested_objects_recursively() {
        assertThat(merged("{\"a\":{\"b\":1,\"c\":{\"d\":2,\"e\":3}}}", "{\"a\":{\"c\":{\"d\":20}}}"))
                .isEqualTo(json("{\"a\":{\"b\":1,\"c\":{\"d\":20,\"e\":3}}}"));
    }

    @Test
    void should_replace_arrays_and_scalars() {
        assertThat(merged("{\"a\":[1,2,3],\"b\":\"x\",\"c\":{\"d\":1}}", "{\"a\":[4],\"b\":7,\"c\":\"flat\"}"))
                .isEqualTo(json("{\"a\":[4],\"b\":7,\"c\":\"flat\"}"));
    }

    @Test
    void should_remove_keys_set_to_null() {
        assertThat(merged("{\"a\":1,\"b\":{\"c\":1,\"d\":2}}", "{\"a\":null,\"b\":{\"c\":null},\"missing\":null}"))
                .isEqualTo(json("{\"b\":{\"d\":2}}"));
    }

    @Test
    void should_merge_an_object_into_a_scalar_as_into_an_empty_object() {
        assertThat(merged("{\"a\":5}", "{\"a\":{\"b\":1,\"c\":null}}"))
                .isEqualTo(json("{\"a\":{\"b\":1}}"));
    }

    @Test
    void should_strip_forbidden_keys_at_every_depth_and_report_their_paths() {
        List<String> stripped = new ArrayList<>();
        JsonNode patch = json("""
                {"__proto__": {"admin": true},
                 "a": {"b": {"constructor": 1, "ok": 2}},
                 "list": [{"prototype": 3, "keep": 4}]}
                """);

        JsonNode clean = JsonMerge.withoutForbiddenKeys(patch, stripped);

        assertThat(clean).isEqualTo(json("{\"a\":{\"b\":{\"ok\":2}},\"list\":[{\"keep\":4}]}"));
        assertThat(stripped).containsExactlyInAnyOrder("$.__proto__", "$.a.b.constructor", "$.list[0].prototype");
        assertThat(patch.has("__proto__")).as("the input is not changed").isTrue();
    }
}
