package dev.workingmemory.blocks;

import dev.workingmemory.layer.TestLayerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CoreMemoryTest {

    private final TestLayerContext context = new TestLayerContext();
    private final CoreMemory core = (CoreMemory) CoreMemory.factory(CoreMemoryConfig.defaults()).create(context);

    @Test
    void should_render_filled_blocks_with_their_char_counts_inside_core_memory() {
        core.replace("goal", "Build the About Us page");
        core.append("progress", "- created page-123");
        core.append("progress", "- added hero");

        assertThat(core.render(10_000)).isEqualTo("""
                <core_memory>
                <goal chars="23/1000">Build the About Us page</goal>
                <progress chars="31/2000">- created page-123
                - added hero</progress>
                </core_memory>""");
    }

    @Test
    void should_render_nothing_when_every_block_is_empty() {
        assertThat(core.render(10_000)).isEmpty();
    }

    @Test
    void should_reject_a_write_over_the_limit_saying_by_how_much() {
        core.replace("goal", "x".repeat(990));

        assertThatThrownBy(() -> core.append("goal", "y".repeat(20)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Block 'goal' would hold 1011 chars, over its limit of 1000 by 11."
                        + " Shorten the content or replace the block with a summary.");
        assertThat(core.read("goal").chars()).isEqualTo(990);
    }

    @ParameterizedTest
    @ValueSource(strings = {"mood", "GOAL", ""})
    void should_name_the_valid_blocks_for_an_unknown_one(String block) {
        assertThatThrownBy(() -> core.replace(block, "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Valid blocks: goal, progress, context");
    }

    @Test
    void should_report_a_change_only_when_the_content_changed() {
        core.replace("goal", "same");
        core.replace("goal", "same");

        assertThat(context.changes()).isEqualTo(1);
    }

    @Test
    void should_support_custom_blocks_and_removing_defaults() {
        CoreMemoryConfig config = CoreMemoryConfig.builder().withoutBlock("context").block("persona", 300).build();
        CoreMemory custom = (CoreMemory) CoreMemory.factory(config).create(new TestLayerContext());

        assertThat(custom.blockNames()).containsExactly("goal", "progress", "persona");
        assertThatThrownBy(() -> CoreMemoryConfig.builder().block("Bad Name", 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CoreMemoryConfig.builder().block("ok", 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void should_cut_within_a_small_budget_and_mark_the_cut() {
        core.replace("progress", "p".repeat(1500));

        String rendered = core.render(400);

        assertThat(rendered).hasSizeLessThanOrEqualTo(400).contains("chars cut]").endsWith("</core_memory>");
    }

    @Test
    void should_restore_its_snapshot_and_keep_an_over_limit_stored_block_whole() {
        core.replace("goal", "g");
        CoreMemory other = (CoreMemory) CoreMemory.factory(CoreMemoryConfig.defaults()).create(new TestLayerContext());
        other.restore(core.snapshot());
        assertThat(other.read("goal").content()).isEqualTo("g");

        CoreMemory smaller = (CoreMemory) CoreMemory.factory(CoreMemoryConfig.builder().block("goal", 1).build())
                .create(new TestLayerContext());
        core.replace("goal", "longer");
        smaller.restore(core.snapshot());
        assertThat(smaller.read("goal").content()).isEqualTo("longer");
    }
}
