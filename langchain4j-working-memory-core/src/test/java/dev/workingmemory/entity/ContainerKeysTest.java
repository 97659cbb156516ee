package dev.workingmemory.entity;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class ContainerKeysTest {

    private final ContainerKeys keys = new ContainerKeys(new EntityTypeNames(Set.of("gadget")));

    @ParameterizedTest
    @CsvSource(nullValues = "none", value = {
            "meta, true, false, none, none, none",
            "Meta, true, false, none, none, none",
            "page_info, true, false, none, none, none",
            "data, false, true, none, none, none",
            "DATA, false, true, none, none, none",
            "items, false, true, none, none, none",
            "pages, false, false, page, page, none",
            "featured_image, false, false, image, featured_image, none",
            "blogPosts, false, false, post, blog_post, none",
            "gadgets, false, false, gadget, gadget, none",
            "lineItems, false, false, none, line_item, none",
            "pedidos, false, false, none, pedido, none",
            "verbindungen, false, false, none, verbindungen, verbindungen",
            "Zug_Verbindungen, false, false, none, zug_verbindungen, zug_verbindungen",
            "szkolki, false, false, none, szkolki, szkolki",
            "staff, false, false, none, staff, staff",
            "business, false, false, business, business, none",
            "заказы, false, false, none, заказы, none",
            "résultats, false, false, none, résultat, résultats",
            "注文, false, false, none, 注文, none",
            "'-', false, false, none, none, none"
    })
    void should_work_out_what_a_key_means(String name, boolean ignored, boolean wrapper, String knownType,
                                          String ownType, String listHeading) {
        assertThat(keys.of(name))
                .isEqualTo(new ContainerKeys.Key(name, ignored, wrapper, knownType, ownType, listHeading));
    }

    @Test
    void should_remember_a_key_once_and_give_the_same_facts() {
        ContainerKeys.Key first = keys.of("pages");

        assertThat(keys.of("pages")).isSameAs(first);
        assertThat(keys.of(new String("pages"))).isSameAs(first);
        assertThat(keys.remembered()).isEqualTo(1);
    }

    @Test
    void should_remember_at_most_its_bound_and_stay_right_for_many_distinct_keys() {
        List<String> names = IntStream.range(0, 20_000).mapToObj(i -> "key" + i + (i % 2 == 0 ? "Pages" : "_thing"))
                .toList();

        for (String name : names) {
            keys.of(name);
        }

        assertThat(keys.remembered()).isLessThanOrEqualTo(ContainerKeys.MAX_REMEMBERED);
        ContainerKeys reference = fresh();
        for (String name : names) {
            assertThat(keys.of(name)).isEqualTo(reference.of(name));
        }
    }

    @Test
    void should_not_remember_long_keys() {
        String atLimit = "x".repeat(ContainerKeys.MAX_REMEMBERED_LENGTH - 6) + "_pages";
        String tooLong = "x".repeat(ContainerKeys.MAX_REMEMBERED_LENGTH - 5) + "_pages";

        assertThat(keys.of(tooLong).knownType()).isEqualTo("page");
        assertThat(keys.remembered()).isZero();
        keys.of(atLimit);
        assertThat(keys.remembered()).isEqualTo(1);
    }

    @Test
    void should_give_the_same_facts_from_many_threads() throws Exception {
        // More keys than the bound, so that entries keep being evicted while threads read them.
        List<String> names = IntStream.range(0, 4 * ContainerKeys.MAX_REMEMBERED)
                .mapToObj(i -> i % 3 == 0 ? "Items" : "key" + i + "Images").toList();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> futures = IntStream.range(0, 8).mapToObj(t -> pool.submit(() -> {
                ContainerKeys reference = fresh();
                for (int round = 0; round < 50; round++) {
                    for (int i = 0; i < names.size(); i++) {
                        String name = names.get((i * 7 + t * 13 + round) % names.size());
                        if (!keys.of(name).equals(reference.of(name))) {
                            return false;
                        }
                    }
                }
                return true;
            })).toList();
            for (Future<Boolean> future : futures) {
                assertThat(future.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(keys.remembered()).isLessThanOrEqualTo(ContainerKeys.MAX_REMEMBERED);
    }

    private static ContainerKeys fresh() {
        return new ContainerKeys(new EntityTypeNames(Set.of("gadget")));
    }
}
