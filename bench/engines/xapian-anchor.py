"""The Xapian anchor of bench:engines (xapian-anchor.ts runs it with Debian's /usr/bin/python3).

Usage: xapian-anchor.py DATABASE_FOLDER PAGES_JSONL QUERIES_JSON WARMUP_ROUNDS ROUNDS

Indexes the pages (one JSON object a line: url, title, body) into a new on-disk database the
way Xapian's documentation indexes text, then times each query over the rounds, inside this
process so that no inter-process cost is counted. Prints one JSON object on stdout; progress
goes to stderr.
"""

import json
import resource
import sys
import time

import xapian

# The title's words count this many times a body word (wdf), so a page titled by the query
# ranks above one that mentions it: Xapian's usual way of weighting a field.
TITLE_WDF = 5


def term_generator():
    generator = xapian.TermGenerator()
    generator.set_stemmer(xapian.Stem("english"))
    # Japanese has no spaces between words: index every CJK character and every pair of them.
    generator.set_flags(xapian.TermGenerator.FLAG_CJK_NGRAM)
    return generator


def index_pages(folder, pages):
    database = xapian.WritableDatabase(folder, xapian.DB_CREATE_OR_OVERWRITE | xapian.DB_BACKEND_GLASS)
    generator = term_generator()
    for page in pages:
        document = xapian.Document()
        generator.set_document(document)
        generator.index_text(page["title"], TITLE_WDF)
        # A gap in positions, so a phrase cannot run from the title into the body.
        generator.increase_termpos()
        generator.index_text(page["body"])
        document.set_data(page["url"])
        database.add_document(document)
    database.commit()
    database.close()


def query_parser(database):
    parser = xapian.QueryParser()
    parser.set_database(database)
    parser.set_stemmer(xapian.Stem("english"))
    parser.set_stemming_strategy(xapian.QueryParser.STEM_SOME)
    # Every word must match, as Kumo and Groonga AND a query's words (Xapian's default is OR).
    parser.set_default_op(xapian.Query.OP_AND)
    return parser


FLAGS = xapian.QueryParser.FLAG_DEFAULT | xapian.QueryParser.FLAG_CJK_NGRAM


def parse(parser, text, fallbacks):
    try:
        return parser.parse_query(text, FLAGS)
    except xapian.QueryParserError:
        # Words that read as broken syntax (a lone `NOT`): searched as plain words instead.
        fallbacks.add(text)
        return parser.parse_query(text, xapian.QueryParser.FLAG_CJK_NGRAM)


def preemptions():
    """Times this thread lost its core to another (see preemptions.ts on the Kumo side)."""
    return resource.getrusage(resource.RUSAGE_THREAD).ru_nivcsw


def main():
    folder, pages_file, queries_file, warmup_rounds, rounds = sys.argv[1:6]
    warmup_rounds, rounds = int(warmup_rounds), int(rounds)
    with open(pages_file, encoding="utf-8") as lines:
        pages = [json.loads(line) for line in lines]
    with open(queries_file, encoding="utf-8") as text:
        queries = json.load(text)

    sys.stderr.write(f"xapian: indexing {len(pages)} pages\n")
    started = time.perf_counter()
    index_pages(folder, pages)
    index_seconds = time.perf_counter() - started

    database = xapian.Database(folder)
    enquire = xapian.Enquire(database)
    parser = query_parser(database)
    fallbacks = set()
    total = [[] for _ in queries]
    mset_only = [[] for _ in queries]
    preempted = [[] for _ in queries]
    empty = [False for _ in queries]
    sys.stderr.write(f"xapian: {len(queries)} queries x {rounds} rounds after {warmup_rounds} warm-up rounds\n")
    for round_number in range(warmup_rounds + rounds):
        for at, text in enumerate(queries):
            switches = preemptions()
            began = time.perf_counter()
            enquire.set_query(parse(parser, text, fallbacks))
            parsed = time.perf_counter()
            mset = enquire.get_mset(0, 10)
            ended = time.perf_counter()
            if round_number >= warmup_rounds:
                total[at].append((ended - began) * 1000)
                mset_only[at].append((ended - parsed) * 1000)
                preempted[at].append(preemptions() != switches)
            empty[at] = mset.size() == 0

    json.dump(
        {
            "version": xapian.version_string(),
            "documents": database.get_doccount(),
            "indexSeconds": index_seconds,
            "total": total,
            "msetOnly": mset_only,
            "preempted": preempted,
            "empty": empty,
            "parseFallbacks": len(fallbacks),
        },
        sys.stdout,
    )
    sys.stdout.write("\n")


main()
