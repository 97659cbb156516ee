package dev.workingmemory.samples.shared;

import dev.workingmemory.entity.Entity;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkingMemoryBlockTest {

    private static final String BLOCK = """
            <working_memory>
            <entities>pages:
              - "Contact" (page-2)
              - "About Us" (page-1)
            sections:
              - "Q&amp;A" (sec-1)
            categories:
              - "News" (cat-1)
            When the user says "it", use the most recent entity of that type (listed first).</entities>
            </working_memory>""";

    @Test
    void should_take_the_block_from_the_end_of_the_system_message_even_when_the_prompt_names_the_tag() {
        String system = "Read <working_memory> carefully, it ends with </working_memory>.\n\n" + BLOCK;

        assertThat(WorkingMemoryBlock.of(system)).isEqualTo(BLOCK);
        assertThat(WorkingMemoryBlock.of("no block here")).isEmpty();
    }

    @Test
    void should_list_the_entities_in_block_order_with_unescaped_names() {
        assertThat(WorkingMemoryBlock.entities(BLOCK)).containsExactly(
                new Entity("page-2", "Contact", "pages"),
                new Entity("page-1", "About Us", "pages"),
                new Entity("sec-1", "Q&A", "sections"),
                new Entity("cat-1", "News", "categories"));
    }

    @Test
    void should_resolve_the_most_recent_entity_a_named_one_and_a_name() {
        List<String> seen = new ArrayList<>();

        String resolved = WorkingMemoryBlock.resolve("{{page}} {{page:about us}} {{page.name}} {{section.name}} {{category}}",
                BLOCK, (placeholder, value) -> seen.add(placeholder + "=" + value));

        assertThat(resolved).isEqualTo("page-2 page-1 Contact Q&A cat-1");
        assertThat(seen).startsWith("{{page}}=page-2", "{{page:about us}}=page-1");
        assertThat(WorkingMemoryBlock.resolve("no placeholders", "")).isEqualTo("no placeholders");
    }

    @Test
    void should_refuse_to_guess_an_entity_the_block_does_not_list() {
        assertThatThrownBy(() -> WorkingMemoryBlock.resolve("{{image}}", BLOCK))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("lists no such image");
        assertThatThrownBy(() -> WorkingMemoryBlock.resolve("{{page:Home}}", BLOCK))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> WorkingMemoryBlock.resolve("{{page}}", ""))
                .hasMessageContaining("(none)");
    }
}
