package dev.workingmemory.entity;

import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.workingmemory.layer.TestLayerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The headings the block lists entity types under, for APIs whose keys are English and for APIs whose keys are in
 * another language, and the way back from a heading to its type.
 */
class EntityHeadingsTest {

    private final TestLayerContext context = new TestLayerContext();

    private EntityMemory memory(EntityExtractor extractor) {
        EntityMemoryConfig config = EntityMemoryConfig.builder().extractor(extractor).referenceGuidance("").build();
        return (EntityMemory) EntityMemory.factory(config).create(context);
    }

    private EntityMemory memory() {
        return memory(JsonEntityExtractor.create());
    }

    private static ToolExecutionResultMessage result(String tool, String json) {
        return ToolExecutionResultMessage.from("call", tool, json);
    }

    /** The heading of the most recent entity's group: the block's first line. */
    private static String heading(EntityMemory memory) {
        String rendered = memory.render(10_000);
        assertThat(rendered).startsWith("<entities>");
        return rendered.substring("<entities>".length(), rendered.indexOf('\n'));
    }

    /**
     * A list in another language is headed by its key, the plural its API gives ({@code artikel} is German for several
     * too); a type with a letter outside ASCII gets no English {@code s}; English headings stay as they were, and so do
     * those of keys whose plural is made as in English ({@code pedidos}, {@code commandes}). Each heading is read back
     * as its type.
     */
    @ParameterizedTest(name = "{0}: {3}")
    @CsvSource(delimiter = '|', value = {
            "de list | searchTrains | {\"verbindungen\":[{\"id\":\"V-1\",\"name\":\"Nightjet Wien\"}]} | verbindungen:",
            "de list | bestellung_abrufen | {\"artikel\":[{\"id\":\"KM-3300\",\"name\":\"Barista Pro\"}]} | artikel:",
            "pl list | searchSkiSchools | {\"szkolki\":[{\"id\":\"SN-33\",\"nazwa\":\"Szkółka Harenda\"}]} | szkolki:",
            "pl list | sprawdz | {\"zamówienia\":[{\"id\":\"PL-5520\",\"name\":\"Zamówienie Nowak\"}]} | zamówienia:",
            "ru list | найти_заказы | {\"заказы\":[{\"id\":\"RU-61448\",\"название\":\"Заказ Соколова\"}]} | заказы:",
            "ja list | 注文検索 | {\"注文\":[{\"id\":\"JP-5573\",\"名称\":\"炊飯器 匠炊き\"}]} | 注文:",
            "zh list | 查询订单 | {\"订单\":[{\"id\":\"CN-8831\",\"名称\":\"清风空气净化器\"}]} | 订单:",
            "ru one | найти_заказ | {\"заказ\":{\"id\":\"RU-61448\",\"name\":\"Заказ Соколова\"}} | заказ:",
            "pl one | sprawdz | {\"zamówienie\":{\"id\":\"PL-5520\",\"name\":\"Zamówienie Nowak\"}} | zamówienie:",
            "ja one | 注文照会 | {\"注文\":{\"id\":\"JP-5573\",\"name\":\"炊飯器\"}} | 注文:",
            "en list | cms_listPages | {\"pages\":[{\"id\":\"page-1\",\"title\":\"About Us\"}]} | pages:",
            "en list | lookup | {\"lineItems\":[{\"id\":\"L-1\",\"name\":\"Blue Mug\"}]} | line_items:",
            "en list | list_things | {\"widgets\":[{\"id\":\"W-1\",\"name\":\"Dial\"}]} | widgets:",
            "en list | lookup | {\"people\":[{\"id\":\"U-1\",\"name\":\"Ada Lovelace\"}]} | people:",
            "en list | lookup | {\"categories\":[{\"id\":\"C-1\",\"name\":\"Kitchen\"}]} | categories:",
            "en known | yelp_graphql | {\"search\":{\"business\":[{\"id\":\"b-1\",\"name\":\"Nopa\"}]}} | businesses:",
            "en tool | FindTrains | [{\"id\":\"T-1\",\"name\":\"Coast Starlight\"}] | trains:",
            "en one | getWidget | {\"widget\":{\"id\":\"W-1\",\"name\":\"Dial\"}} | widgets:",
            "es list | buscar | {\"pedidos\":[{\"id\":\"P-1\",\"name\":\"Pedido Iglesias\"}]} | pedidos:",
            "fr list | chercher | {\"commandes\":[{\"id\":\"C-1\",\"name\":\"Commande Beaumont\"}]} | commandes:",
            "fr list | chercher | {\"résultats\":[{\"id\":\"R-1\",\"name\":\"Hôtel du Parc\"}]} | résultats:",
            "ru configured | zakaz_lookup | {\"id\":\"RU-1\",\"name\":\"Заказ Соколова\"} | заказ:"
    })
    void should_head_a_type_by_the_plural_its_api_gives_and_read_the_heading_back_as_the_type(String what, String tool,
                                                                                            String json, String expected) {
        EntityMemory entities = memory(JsonEntityExtractor.builder().toolTypes(Map.of("zakaz_lookup", "заказ")).build());

        entities.onMessage(result(tool, json));

        assertThat(heading(entities)).isEqualTo(expected);
        // the way back: records under a key spelled as the heading get the same type, so a tool or an API that
        // names the type by the block's heading means that type
        ContainerKeys.Key key = new ContainerKeys(new EntityTypeNames(Set.of("заказ")))
                .of(expected.substring(0, expected.length() - 1));
        assertThat(key.knownType() != null ? key.knownType() : key.ownType())
                .isEqualTo(entities.entities().get(0).type());
    }

    @Test
    void should_keep_the_heading_its_list_gave_when_an_entity_of_its_type_comes_alone() {
        EntityMemory entities = memory();
        entities.onMessage(result("searchTrains", "{\"verbindungen\":[{\"id\":\"V-1\",\"name\":\"Nightjet Wien\"}]}"));

        entities.onMessage(result("verbindung_abrufen", "{\"verbindungen\":{\"id\":\"V-2\",\"name\":\"Railjet Linz\"}}"));
        assertThat(entities.render(10_000)).isEqualTo("<entities>verbindungen:\n"
                + "  - \"Railjet Linz\" (V-2)\n"
                + "  - \"Nightjet Wien\" (V-1)</entities>");

        entities.onMessage(result("verbindung_abrufen", "{\"verbindungen\":{\"id\":\"V-1\",\"name\":\"Nightjet Wien\"}}"));
        assertThat(entities.render(10_000)).isEqualTo("<entities>verbindungen:\n"
                + "  - \"Nightjet Wien\" (V-1)\n"
                + "  - \"Railjet Linz\" (V-2)</entities>");
    }

    @Test
    void should_take_the_heading_a_list_gives_entities_already_in_front() {
        EntityMemory entities = memory();
        entities.track(List.of(new Entity("V-1", "Nightjet Wien", "verbindungen")));
        assertThat(heading(entities)).isEqualTo("verbindungens:");

        entities.onMessage(result("searchTrains", "{\"verbindungen\":[{\"id\":\"V-1\",\"name\":\"Nightjet Wien\"}]}"));

        assertThat(heading(entities)).isEqualTo("verbindungen:");
    }

    @Test
    void should_snapshot_and_restore_the_heading_a_list_gave_and_nothing_for_an_english_one() {
        EntityMemory entities = memory();
        entities.onMessage(result("list_things", "{\"widgets\":[{\"id\":\"W-1\",\"name\":\"Dial\"}]}"));
        entities.onMessage(result("searchTrains", "{\"verbindungen\":[{\"id\":\"V-1\",\"name\":\"Nightjet Wien\"}]}"));

        EntityMemory restored = memory();
        restored.restore(entities.snapshot());

        assertThat(entities.snapshot().get("entities").get(0).get("heading").asText()).isEqualTo("verbindungen");
        assertThat(entities.snapshot().get("entities").get(1).has("heading")).isFalse();
        assertThat(restored.render(10_000)).isEqualTo(entities.render(10_000))
                .startsWith("<entities>verbindungen:\n").contains("\nwidgets:\n");
    }

    @Test
    void should_head_entities_of_another_extractor_and_tracked_ones_by_the_plural_of_their_type() {
        EntityMemory entities = memory((tool, text) -> List.of(new Entity("V-1", "Nightjet", "verbindungen")));

        entities.onMessage(result("searchTrains", "{\"verbindungen\":[{\"id\":\"V-1\",\"name\":\"Nightjet\"}]}"));
        assertThat(heading(entities)).isEqualTo("verbindungens:");

        entities.track(List.of(new Entity("Z-1", "Заказ", "заказ")));
        assertThat(heading(entities)).isEqualTo("заказ:");
    }

    /** An application's extractor that filters the JSON extractor's entities keeps the headings of those it keeps. */
    @Test
    void should_head_entities_of_an_extractor_that_wraps_the_json_one_as_the_json_one_does() {
        JsonEntityExtractor json = JsonEntityExtractor.create();
        EntityExtractor withoutDrafts = new EntityExtractor() {
            @Override
            public List<Entity> extract(String tool, String text) {
                return extractWithHeadings(tool, text).entities();
            }

            @Override
            public ExtractedEntities extractWithHeadings(String tool, String text) {
                ExtractedEntities all = json.extractWithHeadings(tool, text);
                List<Integer> kept = java.util.stream.IntStream.range(0, all.entities().size())
                        .filter(i -> !all.entities().get(i).name().startsWith("Draft")).boxed().toList();
                return new ExtractedEntities(kept.stream().map(all.entities()::get).toList(),
                        kept.stream().map(all.headings()::get).toList());
            }
        };
        EntityMemory entities = memory(withoutDrafts);

        entities.onMessage(result("searchTrains", "{\"verbindungen\":[{\"id\":\"V-1\",\"name\":\"Draft plan\"},"
                + "{\"id\":\"V-2\",\"name\":\"Nightjet\"}]}"));

        assertThat(entities.render(10_000)).startsWith("<entities>verbindungen:\n").contains("Nightjet")
                .doesNotContain("Draft");
    }

    @Test
    void should_refuse_headings_that_do_not_pair_with_the_entities() {
        Entity one = new Entity("V-1", "Nightjet", "verbindung");
        assertThat(ExtractedEntities.withoutHeadings(List.of(one)).headings()).containsExactly((String) null);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ExtractedEntities(List.of(one), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one heading per entity");
    }

    @Test
    void should_know_a_configured_type_by_the_heading_the_block_gives_it_and_by_no_english_plural_of_another_script() {
        EntityTypeNames names = new EntityTypeNames(Set.of("заказ", "widget"));

        assertThat(names.knownTypeOfKey("заказ")).isEqualTo("заказ");
        assertThat(names.knownTypeOfKey("заказs")).isNull();
        assertThat(names.knownTypeOfKey("widgets")).isEqualTo("widget");
    }
}
