package dev.workingmemory.entity;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Records without an id, types from tool names in other conventions, and results that are not about things. */
class NamedRecordExtractionTest {

    private final JsonEntityExtractor extractor = JsonEntityExtractor.create();

    private static Entity named(String name, String type) {
        return Entity.withoutId(name, type);
    }

    // --- records without ids -----------------------------------------------------------------------------------

    @Test
    void should_extract_the_issues_examples_with_ids_derived_from_type_and_name() {
        assertThat(extractor.extract("FindRestaurants",
                "[{\"restaurant_name\":\"Sushi Ran\",\"city\":\"Sausalito\",\"phone_number\":\"415-332-3620\"}]"))
                .containsExactly(named("Sushi Ran", "restaurant"));
        assertThat(extractor.extract("lookup", "{\"movie_title\":\"Labyrinth\",\"genre\":\"Fantasy\"}"))
                .containsExactly(named("Labyrinth", "movie"));
        assertThat(extractor.extract("FindEvents", """
                [{"event_name":"Hamilton","date":"2019-03-14"},{"event_name":"Lady Gaga","date":"2019-03-05"},
                 {"event_name":"Kacey Musgraves","date":"2019-03-15"},{"event_name":"Sharks Vs Kings"}]
                """)).containsExactly(named("Hamilton", "event"), named("Lady Gaga", "event"),
                named("Kacey Musgraves", "event"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "restaurant_name | restaurant", "restaurantName | restaurant", "movie_title | movie",
            "movieTitle | movie", "place_name | place", "placeName | place", "event_name | event",
            "hotelName | hotel", "song_name | song", "attraction_name | attraction", "widget_name | widget"
    })
    void should_type_a_record_without_id_by_the_prefix_of_its_name_key(String key, String type) {
        assertThat(extractor.extract("lookup", "{\"" + key + "\":\"Blue Door\",\"rating\":4.5}"))
                .containsExactly(named("Blue Door", type));
    }

    @Test
    void should_type_a_plain_name_by_the_key_above_or_the_tool() {
        assertThat(extractor.extract("FindMovies", "[{\"title\":\"Hellboy\",\"genre\":\"Fantasy\"}]"))
                .containsExactly(named("Hellboy", "movie"));
        assertThat(extractor.extract("query", "{\"data\":{\"searchMovies\":[{\"title\":\"Up\",\"year\":2009}]}}"))
                .containsExactly(named("Up", "movie"));
        assertThat(extractor.extract("list", "{\"products\":[{\"display_name\":\"Milk Frother\",\"price\":39}]}"))
                .containsExactly(named("Milk Frother", "product"));
        assertThat(extractor.extract("lookup", "{\"name\":\"Thing\",\"colour\":\"red\"}")).as("no type").isEmpty();
    }

    @Test
    void should_prefer_the_name_of_the_tools_type_over_other_names() {
        assertThat(extractor.extract("GetTimesForMovie",
                "{\"theater_name\":\"California Theatre\",\"movie_name\":\"Labyrinth\",\"show_time\":\"18:30\"}"))
                .containsExactly(named("Labyrinth", "movie"));
    }

    @Test
    void should_take_a_known_thing_named_by_a_key_prefix_over_a_word_of_the_tool_name() {
        assertThat(extractor.extract("FindProvider", "[{\"stylist_name\":\"Atelier Salon\",\"is_unisex\":true}]"))
                .containsExactly(named("Atelier Salon", "stylist"));
        assertThat(extractor.extract("FindProvider", "[{\"mission_name\":\"Starlink-15\"}]"))
                .as("an unknown prefix does not override the tool's type").isEmpty();
        assertThat(extractor.extract("lookup", "{\"events\":[{\"venue_name\":\"The Masonic\"}]}"))
                .as("a known key above fixes the type").isEmpty();
    }

    @Test
    void should_deduplicate_records_without_id_by_name_within_a_type() {
        assertThat(extractor.extract("FindRestaurants", """
                [{"restaurant_name":"Sushi Ran"},{"restaurant_name":" sushi   RAN "},{"restaurant_name":"Ebisu"}]
                """)).containsExactly(named("Sushi Ran", "restaurant"), named("Ebisu", "restaurant"));
    }

    @Test
    void should_keep_parts_of_a_named_record_out_and_keep_resources_with_ids_in_a_named_envelope() {
        assertThat(extractor.extract("FindEvents",
                "{\"event_name\":\"Concert\",\"venue\":{\"name\":\"Shoreline\"},\"artists\":[{\"name\":\"X\"}]}"))
                .containsExactly(named("Concert", "event"));
        assertThat(extractor.extract("cms_listPages",
                "{\"name\":\"Acme site\",\"pages\":[{\"id\":\"p-1\",\"title\":\"Home\"}]}"))
                .containsExactly(new Entity("p-1", "Home", "page"));
        assertThat(extractor.extract("spacex_query",
                "{\"launches\":[{\"mission_name\":\"Starlink-15\",\"rocket\":{\"rocket_name\":\"Falcon 9\"}}]}"))
                .as("a named record without a type still owns its parts").isEmpty();
    }

    @Test
    void should_take_a_typed_name_for_a_party_only_when_the_record_is_that_party() {
        assertThat(extractor.extract("get_contact", "{\"contact_name\":\"Jane Doe\",\"phone\":\"555-0100\"}"))
                .containsExactly(named("Jane Doe", "contact"));
        assertThat(extractor.extract("ShareLocation", "{\"contact_name\":\"Ben\",\"location\":\"1 Ferry Building\"}"))
                .isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "MakePayment       | {\"payment_method\":\"app balance\",\"amount\":\"$43\",\"receiver\":\"Jerry\"}",
            "MakePayment       | {\"receiver_name\":\"Rachel\",\"amount\":84.5,\"status\":\"completed\"}",
            "send_money        | {\"user_name\":\"alice\",\"recipient_account_name\":\"Jane\",\"amount\":3}",
            "GetWeather        | {\"city\":\"San Diego\",\"temperature\":\"72 degrees\",\"humidity\":\"44 percent\"}",
            "get_weather       | {\"location\":{\"name\":\"Paris\",\"country\":\"France\"},\"current\":{\"temp_c\":18}}",
            "get_forecast      | {\"list\":[{\"weather\":[{\"id\":500}]}],\"city\":{\"id\":3163858,\"name\":\"Zocca\"}}",
            "ReserveHotel      | {\"status\":\"success\"}",
            "GetAvailableTimes | {\"available_times\":[\"10:00\",\"10:30\"]}",
            "get_slots         | {\"slots\":[{\"start\":\"09:00\",\"end\":\"09:30\"}]}",
            "count_issues      | {\"count\":17}",
            "CheckBalance      | {\"accounts\":[{\"id\":\"a-1\",\"name\":\"Checking\",\"balance\":10}]}",
            "SearchOnewayFlight | [{\"airlines\":\"United Airlines\",\"price\":\"$289\"}]",
            "FindBus           | [{\"from_location\":\"Sacramento\",\"to_location\":\"San Francisco\"}]",
            "cancel_booking    | {\"success\":true,\"message\":\"Reservation cancelled.\"}"
    })
    void should_find_no_entity_in_results_that_are_not_about_things(String tool, String result) {
        assertThat(extractor.extract(tool, result)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "2019-03-01", "2019-03-01T10:00:00Z", "7:30 pm", "1989", "$43.00", "https://example.com/movie",
            "www.example.com", "ann@example.com", "n/a", "Unknown", "-", "   ",
            "A very long description of the film that goes on and on well past anything a title would need to say"
                    + " to anyone reading it",
            "Line one\nline two"
    })
    void should_not_take_a_value_that_is_not_a_name_for_a_record_without_id(String value) {
        String json = "[{\"title\":\"" + value.replace("\n", "\\n") + "\",\"genre\":\"Fantasy\"}]";

        assertThat(extractor.extract("FindMovies", json)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"Up", "Shazam!", "49ers Vs Rams", "Dune: Part Two", "Zuni Café", "Dr. Lisa Kim"})
    void should_take_short_human_readable_names(String value) {
        assertThat(extractor.extract("FindMovies", "[{\"title\":\"" + value + "\"}]"))
                .containsExactly(named(value, "movie"));
    }

    // --- records with ids --------------------------------------------------------------------------------------

    /** An API in another language names its records under its own words; the name follows the id, as in English. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "searchApartments | [{\"id\":\"AP-7781\",\"nombre\":\"Casa do Fado\",\"barrio\":\"Alfama\",\"precio_total\":612}] | AP-7781 | Casa do Fado | apartment",
            "searchHotels | [{\"id\":\"IRK-12\",\"название\":\"Гостиница Ангара\",\"город\":\"Иркутск\"}] | IRK-12 | Гостиница Ангара | hotel",
            "searchHomestays | [{\"id\":\"DL-501\",\"名称\":\"洱海边小院\",\"位置\":\"大理双廊\"}] | DL-501 | 洱海边小院 | homestay",
            // a language's own key for the number, first, where an English API has id
            "lookupOrder | {\"注文番号\":\"JP-20251120-5573\",\"お客様名\":\"佐藤 健太\",\"ステータス\":\"出荷準備中\"} | JP-20251120-5573 | JP-20251120-5573 | order",
            "getOrder | {\"commande\":\"FR-2025-99412\",\"client\":\"Thierry Beaumont\",\"produits\":[{\"reference\":\"ASP-BAL-700\",\"libelle\":\"Aspirateur Tornade\"}]} | FR-2025-99412 | FR-2025-99412 | order"})
    void should_read_ids_and_names_under_keys_of_another_language(String tool, String json, String id, String name,
                                                                  String type) {
        assertThat(extractor.extract(tool, json)).containsExactly(new Entity(id, name, type));
    }

    @ParameterizedTest
    @ValueSource(strings = {"shipped", "Entregado", "in Zustellung verzögert", "USD", "PENDING", "D8781",
            "Buy more coffee filters", "MDEyOklzc3VlQ29tbWVudDE="})
    void should_not_name_a_record_by_a_status_code_or_sentence_after_its_id(String value) {
        assertThat(extractor.extract("searchOrders", "[{\"id\":\"o-1\",\"estado\":\"" + value + "\"}]"))
                .containsExactly(new Entity("o-1", "o-1", "order"));
    }

    /** A record looked up alone gives its customer's name next to its number: a person, not its name. */
    @Test
    void should_not_name_a_record_looked_up_alone_by_the_proper_name_after_its_id() {
        assertThat(extractor.extract("lookupOrder",
                "{\"orderId\":\"88-ES-30177\",\"cliente\":\"Marta Iglesias Pardo\",\"estado\":\"entregado\"}"))
                .containsExactly(new Entity("88-ES-30177", "88-ES-30177", "order"));
    }

    @Test
    void should_not_name_a_record_by_a_proper_name_after_its_id_under_a_name_or_id_key_of_another_kind() {
        assertThat(extractor.extract("searchOrders",
                "[{\"id\":\"o-1\",\"receiver_name\":\"Marta Iglesias\",\"node_id\":\"Casa Grande\"}]"))
                .containsExactly(new Entity("o-1", "o-1", "order"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2025-11-28", "2025-11-28T07:12:00Z", "shipped", "1.2.3", "88310025", "449,00 €",
            "NJ 40490", "-12", "a-b-c"})
    void should_take_no_date_word_number_or_amount_in_a_first_field_as_an_id(String value) {
        assertThat(extractor.extract("lookupOrder", "{\"fecha\":\"" + value + "\",\"estado\":\"ok\"}")).isEmpty();
    }

    @Test
    void should_keep_the_things_a_booking_number_is_about_instead_of_the_booking() {
        assertThat(extractor.extract("bookHotel", "{\"buchung\":\"BK-55-30912\",\"hotel\":{\"id\":\"H-1182\","
                + "\"name\":\"Hotel Am Spittelberg\"},\"anreise\":\"2025-12-04\"}"))
                .containsExactly(new Entity("H-1182", "Hotel Am Spittelberg", "hotel"));
    }

    @Test
    void should_keep_a_named_record_named_when_its_first_field_is_a_code() {
        assertThat(extractor.extract("FindProducts", "[{\"sku\":\"ZR-TRAIL-40\",\"name\":\"Zapatillas Cumbre\"}]"))
                .containsExactly(named("Zapatillas Cumbre", "product"));
    }

    @Test
    void should_not_name_a_resource_after_another_party() {
        assertThat(extractor.extract("send_money",
                "{\"transaction_id\":\"txn_1\",\"receiver_name\":\"Marta\",\"amount\":25}"))
                .containsExactly(new Entity("txn_1", "txn_1", "transaction"));
    }

    @Test
    void should_use_the_type_a_record_declares() {
        assertThat(extractor.extract("retrieve", "{\"id\":\"pi_1\",\"object\":\"payment_intent\",\"amount\":2000}"))
                .containsExactly(new Entity("pi_1", "pi_1", "payment_intent"));
        assertThat(extractor.extract("query",
                "{\"data\":{\"search\":{\"nodes\":[{\"__typename\":\"Restaurant\",\"name\":\"Nopa\"}]}}}"))
                .containsExactly(named("Nopa", "restaurant"));
        assertThat(extractor.extract("lookup", "{\"@type\":\"http://schema.org/Hotel\",\"name\":\"Hotel Zephyr\"}"))
                .containsExactly(named("Hotel Zephyr", "hotel"));
    }

    @Test
    void should_read_the_fields_of_attribute_objects_as_the_records_own() {
        assertThat(extractor.extract("list_articles", """
                {"data":[{"type":"articles","id":"1","attributes":{"title":"JSON:API paints my bikeshed!"}}],
                 "included":[{"type":"people","id":"42","attributes":{"name":"John"}}]}
                """)).containsExactly(new Entity("1", "JSON:API paints my bikeshed!", "article"));
        assertThat(extractor.extract("search_products", """
                {"hits":{"hits":[{"_index":"products","_id":"p-100","_source":{"name":"Trail Shoe","tags":["x"]}}]}}
                """)).containsExactly(new Entity("p-100", "Trail Shoe", "product"));
    }

    @Test
    void should_take_own_id_keys_of_search_hits_as_the_records_id() {
        assertThat(extractor.extract("search_products", "{\"hits\":[{\"objectID\":\"439784\",\"name\":\"Echo Dot\"}]}"))
                .containsExactly(new Entity("439784", "Echo Dot", "product"));
    }

    @Test
    void should_name_a_resource_by_its_subject_or_summary_when_it_has_no_better_name() {
        assertThat(extractor.extract("get_ticket", "{\"ticket\":{\"id\":7,\"subject\":\"Printer on fire\"}}"))
                .containsExactly(new Entity("7", "Printer on fire", "ticket"));
        assertThat(extractor.extract("create_event", "{\"id\":\"e1\",\"summary\":\"Team sync\",\"name\":\"sync\"}"))
                .containsExactly(new Entity("e1", "sync", "event"));
    }

    @Test
    void should_take_a_name_given_as_an_object_but_not_parts_of_a_persons_name() {
        assertThat(extractor.extract("list_events", "{\"events\":[{\"id\":\"1\",\"name\":{\"text\":\"Tech Meetup\"}}]}"))
                .containsExactly(new Entity("1", "Tech Meetup", "event"));
        assertThat(extractor.extract("countries", "{\"country\":{\"name\":{\"common\":\"France\",\"official\":"
                + "\"French Republic\"},\"cca2\":\"FR\"}}")).containsExactly(named("France", "country"));
        assertThat(extractor.extract("get_contact", "{\"contact\":{\"name\":{\"first\":\"Ann\",\"last\":\"Lee\"}}}"))
                .isEmpty();
    }

    // --- tool names ----------------------------------------------------------------------------------------------

    @ParameterizedTest
    @CsvSource({
            "FindRestaurants, restaurant", "ReserveRestaurant, restaurant", "SearchHotel, hotel",
            "ReserveHotel, hotel", "get_weather, weather", "BuyEventTickets, event", "FindEvents, event",
            "LookupMusic, music", "PlaySong, song", "searchMovies, movie", "GetTimesForMovie, movie",
            "BookAppointment, appointment", "FindHomeByArea, home", "GetCarsAvailable, car", "FindTrains, train",
            "FindBus, bus", "GetRide, ride", "SearchOnewayFlight, flight", "FindAttractions, attraction",
            "getTicket, ticket", "post_message, message", "list_playlists, playlist", "track_order, order",
            "find-doctors, doctor", "get_repos, repository", "getBookDetails, book", "api_bookAppointment, appointment",
            "PlayMedia, media"
    })
    void should_infer_types_from_tool_names_in_other_conventions(String toolName, String type) {
        assertThat(extractor.typeOfTool(toolName)).isEqualTo(type);
    }

    @ParameterizedTest
    @ValueSource(strings = {"search", "web_search", "github_graphql", "find", "get_", "get_123"})
    void should_infer_no_type_from_a_verb_alone(String toolName) {
        assertThat(extractor.typeOfTool(toolName)).isNull();
    }

    @Test
    void should_let_a_configured_tool_type_win_and_count_as_known() {
        JsonEntityExtractor configured = JsonEntityExtractor.builder()
                .toolTypes(Map.of("lookup", "venue"))
                .build();

        assertThat(configured.extract("lookup", "{\"results\":[{\"name\":\"The Masonic\"}]}"))
                .containsExactly(named("The Masonic", "venue"));
        List<Entity> fromWord = extractor.extract("FindGadgets", "{\"widgets\":[{\"name\":\"Dial\"}]}");
        assertThat(fromWord).as("a word of the tool name yields to the key").containsExactly(named("Dial", "widget"));
    }
}
