package dev.workingmemory.slots;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A message a person wrote that quotes a coding agent's output, and what a document quotes in its fences, are no
 * evidence of a coding agent ({@link PersonsMessage}).
 */
class PersonsMessageTest {

    private static final String TRACE = """
            java.lang.NullPointerException: card is null
                at com.shop.pay.Checkout.submit(Checkout.java:88)
                at com.shop.ui.PayButton.onClick(PayButton.java:31)""";

    @Test
    void should_take_a_ticket_that_quotes_a_stack_trace_for_a_persons_message() {
        String ticket = """
                Ticket #9001 from sam@example.com
                Hello, since this morning my app closes when I tap Pay on the last screen. This is what it shows:

                """ + TRACE + """


                Could you help me with this? We have a market stall on Saturday and need the app.""";

        assertThat(PersonsMessage.is(ticket)).isTrue();
        assertThat(CodingEvidence.isEvidence(ticket)).isFalse();
        assertThat(CodingEvidence.isEvidence(TRACE)).as("the trace alone").isTrue();
    }

    @Test
    void should_read_a_json_ticket_body_as_the_text_it_holds() {
        String json = "{\"id\":9001,\"body\":\"I can't pay since this morning, my app closes when I tap the button.\\n"
                + TRACE.replace("\n", "\\n") + "\\nWe need it working before our market stall on Saturday.\"}";

        assertThat(CodingEvidence.isEvidence(json)).isFalse();
        assertThat(CodingEvidence.isEvidence("{\"stdout\":\"" + TRACE.replace("\n", "\\n") + "\"}")).isTrue();
    }

    @Test
    void should_read_a_json_tickets_fields_together() {
        String trace = TRACE.replace("\n", "\\n");
        String ticket = "{\"subject\":\"My app closes every time I tap the Pay button\",\"description\":\"Since the"
                + " update we cannot take any payments at our shop.\",\"attachment\":\"" + trace + "\"}";
        String build = "{\"command\":\"mvn test\",\"exitCode\":1,\"stdout\":\"" + trace + "\"}";

        assertThat(CodingEvidence.isEvidence(ticket)).isFalse();
        assertThat(CodingEvidence.isEvidence(build)).isTrue();
    }

    @Test
    void should_need_two_lines_of_prose_and_one_in_the_first_person() {
        String onlyOneLine = "I tap Pay and the app closes right away every time.\n" + TRACE;
        String noFirstPerson = "The app closes when the customer taps Pay on the last screen.\n"
                + "The customer says the problem started after the latest update.\n" + TRACE;

        assertThat(CodingEvidence.isEvidence(onlyOneLine)).isTrue();
        assertThat(CodingEvidence.isEvidence(noFirstPerson)).isTrue();
    }

    @Test
    void should_not_take_a_tools_sentences_for_prose() {
        // a tool's sentence names a file, a flag or a version; its own cues are never prose; it indents what people wrote
        String build = """
                We detected TypeScript in your project and created a tsconfig.json file for you.
                We found 2 problems in your code, see the lines below.
                """ + TRACE;
        String npm = """
                npm ERR! We could not reach the registry and our retries ran out while we waited
                npm ERR! We gave up after three tries and I mean it this time for real
                npm ERR! code ETIMEDOUT""";
        String gitLog = """
                commit 3f2a9c1d4e5b6a7980c1d2e3f4a5b6c7d8e9f0a1
                Author: Dev <dev@example.com>
                Date:   Mon Apr 1 10:00:00 2026 +0200

                    We now apply the discount at one hundred as the docs say
                    I also fixed the rounding we had wrong in the total""";

        assertThat(CodingEvidence.isEvidence(build)).isTrue();
        assertThat(CodingEvidence.isEvidence(npm)).isTrue();
        assertThat(CodingEvidence.isEvidence(gitLog)).isTrue();
    }

    @Test
    void should_read_dashes_and_emoji_between_words_as_no_words() {
        assertThat(PersonsMessage.is("""
                Hi team - the report will not open on the dashboard 🙁 since this morning
                We tried two browsers — nothing helps, please have a look for us""")).isTrue();
        assertThat(PersonsMessage.is("""
                Run with --stacktrace option to get the stack trace and we will see more
                We found the problems in your code and listed them for you below"""))
                .as("a flag is a tool's word").isFalse();
    }

    @Test
    void should_read_i_and_we_in_their_forms_but_not_the_country() {
        assertThat(PersonsMessage.is("""
                i cant open the report on the dashboard since this morning at all
                Please could you look at the report on the dashboard for them""")).isTrue();
        assertThat(PersonsMessage.is("""
                The report on the dashboard is slow for the US office since Monday
                Please could you look at the report on the dashboard for them""")).isFalse();
        assertThat(PersonsMessage.is("""
                We’ve tried every browser on the dashboard and nothing helps at all
                Please could you look at the report on the dashboard for them""")).isTrue();
    }

    @Test
    void should_leave_out_what_a_document_quotes_in_its_fences() {
        String code = """
                import { init } from '@shop/sdk';
                const shop = init({ key: 'YOUR_KEY' });
                const list = await shop.products.list({ limit: 10 });
                console.log(list.length);""";
        String article = "How to connect the Shop SDK to the app of your store\n\n```js\n" + code
                + "\n```\n\nThe key is under Settings, in the section called API keys.\n";

        assertThat(PersonsMessage.unquoted(article)).doesNotContain("import").contains("How to connect", "Settings");
        assertThat(CodingEvidence.isEvidence(article)).isFalse();
        assertThat(CodingEvidence.isEvidence(code)).as("the file's code, bare").isTrue();
        assertThat(PersonsMessage.unquoted("```\n" + TRACE + "\n```\n")).as("fenced, no prose around it")
                .contains("Checkout.java:88");
        assertThat(CodingEvidence.isEvidence("Exit code 1:\n```\n" + TRACE + "\n```")).as("a tool's fence").isTrue();
    }

    @Test
    void should_read_a_fence_left_open_as_running_to_the_end() {
        String article = "If the exporter shows this text, the report uses a font that is missing here:\n~~~\n"
                + "Traceback (most recent call last):\n  File \"render.py\", line 118, in render\nKeyError: 'font'\n";

        assertThat(PersonsMessage.unquoted(article)).doesNotContain("Traceback");
        assertThat(CodingEvidence.isEvidence(article)).isFalse();
    }
}
