package dev.workingmemory.samples.cms;

import dev.workingmemory.entity.Entity;
import dev.workingmemory.entity.JsonEntityExtractor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class CmsToolsTest {

    private final CmsTools cms = new CmsTools();

    @Test
    void should_answer_in_the_seeds_shape_with_counter_ids() {
        assertThat(cms.createPage("About Us"))
                .isEqualTo("{\"success\":true,\"page\":{\"id\":\"page-1\",\"title\":\"About Us\",\"slug\":\"about-us\"}}");
        assertThat(cms.createPage("  Contact & Directions ")).contains("\"id\":\"page-2\"", "\"slug\":\"contact-directions\"");
        assertThat(cms.addSection("page-1", "Hero", null))
                .isEqualTo("{\"success\":true,\"section\":{\"id\":\"sec-1\",\"pageId\":\"page-1\",\"kind\":\"hero\",\"heading\":\"Hero\"}}");
        assertThat(cms.searchImages("hero")).startsWith(
                "{\"success\":true,\"query\":\"hero\",\"matches\":[{\"id\":\"img-1\",\"filename\":\"hero.jpg\"");
        assertThat(cms.listPages()).contains("\"pages\":[{\"id\":\"page-1\"", "{\"id\":\"page-2\"");
    }

    @Test
    void should_give_the_entity_extractor_what_the_seed_expects() {
        JsonEntityExtractor extractor = JsonEntityExtractor.create();

        assertThat(extractor.extract("cms_createPage", cms.createPage("About Us")))
                .containsExactly(new Entity("page-1", "About Us", "page"));
        assertThat(extractor.extract("cms_addSection", cms.addSection("page-1", "hero", "Hero")))
                .containsExactly(new Entity("sec-1", "Hero", "section"));
        assertThat(cms.searchImages("hero")).contains("img-4");
        assertThat(extractor.extract("cms_searchImages", cms.searchImages("hero")))
                .extracting(Entity::id).containsExactly("img-1", "img-2", "img-3");
        assertThat(extractor.extract("cms_getPage", cms.getPage("page-1")))
                .containsExactly(new Entity("page-1", "About Us", "page"));
        assertThat(extractor.extract("cms_getPage", cms.getPage("page-7"))).isEmpty();
    }

    static Stream<Arguments> unknownPageCalls() {
        return Stream.of(
                Arguments.of("getPage", (Function<CmsTools, String>) tools -> tools.getPage("page-9")),
                Arguments.of("addSection", (Function<CmsTools, String>) tools -> tools.addSection("page-9", "hero", "Hero")),
                Arguments.of("addSection to a title", (Function<CmsTools, String>) tools -> tools.addSection("About Us", "hero", "Hero")),
                Arguments.of("addSection to null", (Function<CmsTools, String>) tools -> tools.addSection(null, "hero", "Hero")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unknownPageCalls")
    void should_answer_an_unknown_page_id_with_an_error_naming_the_known_pages(String name, Function<CmsTools, String> call) {
        cms.createPage("About Us");

        assertThat(call.apply(cms))
                .startsWith("{\"success\":false,\"error\":\"There is no page with id '")
                .contains("Known pages: page-1 (\\\"About Us\\\")", "cms_listPages");
        assertThat(cms.page("page-1").orElseThrow().sections()).isEmpty();
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"   ", "!!!", "about us"})
    void should_reject_a_page_title_it_cannot_use(String title) {
        cms.createPage("About Us");

        assertThat(cms.createPage(title)).startsWith("{\"success\":false,\"error\":");
        assertThat(cms.pages()).hasSize(1);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"banner", "heroes"})
    void should_reject_an_unknown_section_kind_and_list_the_known_ones(String kind) {
        cms.createPage("About Us");

        assertThat(cms.addSection("page-1", kind, "Hero"))
                .startsWith("{\"success\":false,\"error\":\"Unknown section kind")
                .contains("contact, cta, features, gallery, hero, testimonials, text");
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"  "})
    void should_reject_an_empty_image_query(String query) {
        assertThat(cms.searchImages(query)).startsWith("{\"success\":false,\"error\":\"The query is empty.");
    }

    @Test
    void should_say_when_no_image_matches() {
        assertThat(cms.searchImages("unicorn")).contains("\"matches\":[]", "\"hint\":");
    }

    @Test
    void should_set_a_section_image_only_for_known_ids() {
        cms.createPage("About Us");
        cms.addSection("page-1", "hero", "Hero");

        assertThat(cms.setSectionImage("sec-2", "img-1")).contains("There is no section with id 'sec-2'");
        assertThat(cms.setSectionImage("sec-1", "img-99")).contains("There is no image with id 'img-99'");
        assertThat(cms.setSectionImage("sec-1", "img-2")).contains("\"imageId\":\"img-2\"");
        assertThat(cms.page("page-1").orElseThrow().sections().get(0).imageId()).isEqualTo("img-2");
    }
}
