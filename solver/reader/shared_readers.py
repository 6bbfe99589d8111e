"""Every reader the line templates of :mod:`.grammar` are built from, in one namespace.

The grammar is split along its sections into modules, bottom up: :mod:`.vocabulary`
(word tables), :mod:`.cursor` (the token cursor, sentences), :mod:`.phrases` (numbers,
mana, power/toughness, subtypes), :mod:`.descriptions` (noun phrases), :mod:`.scope`
(targets and references, CR 115), :mod:`.costs` (CR 118, 602.1a), :mod:`.production`
(mana production, CR 106, 605), :mod:`.line_context`, :mod:`.static_sentences`
(replacements and statics, CR 614, 604), :mod:`.effects` (CR 608),
:mod:`.spend_restrictions` (CR 106.6), :mod:`.activation_conditions` (CR 602.5b) and
:mod:`.trigger_events` (CR 603.1).  :mod:`.grammar` keeps the line templates and the
dispatch (``read_line``) above them.

This module re-exports all of them (and the IR, mana and token names the grammar
uses), for modules that refer to the grammar's helpers as ``g.<name>``
(:mod:`.structure`); it imports nothing above the section modules, so such a module
may sit below :mod:`.grammar`.  New code should import from the section module.
"""
from __future__ import annotations

from ..core.ir import (Ability, ability_kind_of_line, ActivatedAbility, ActivationCondition, ANY_TARGET, ATTACHED,
                  CARD_TYPES, CONTROLLER, Cost, Count, CounterReplacement, Effect, Enchant, EntersWith, Filter,
                  Keyword, ManaAbility, ManaReplacement, Produce, Ref, Selector, SELF, SpendRestriction, Static, T,
                  TargetSpec, TokenReplacement, Trigger, TriggeredAbility, TriggeredManaAbility, Unsupported)
from ..core.mana import COLORS, Mana, ManaCost, ManaSyntaxError, parse_symbol
from .subtypes import SUBTYPES
from .tokens import detokenize, NUMBER_WORDS, template, Token
from .vocabulary import (ABILITY_WORDS, BASIC_PLURALS, BASIC_TYPES, COLOR_WORDS, _GRAMMAR_WORDS, GRANTABLE_KEYWORDS,
                         _IRREGULAR_PLURALS, KEYWORD_NAMES, LAND_SUBTYPES, SIMPLE_KEYWORDS, singular, STRIKE_WORDS,
                         TYPE_PLURALS, TYPE_WORDS)
from .cursor import Cursor, find_top, mentions_target, NoMatch, sentences, split_top, strip_ability_word
from .phrases import (color_word, counter_kind, _counter_word, is_subtype, mana_amount, mana_cost, mana_run, number,
                      pt, RULES_COUNTERS, subtype_word)
from .descriptions import Desc, desc, _nonbasic_land, _noun, selector_phrase, SELF_SELECTOR, to_filter, to_selector
from .scope import amount, check_event_refs, keyword_list, object_ref, Scope, target_phrase, trigger_scope
from .costs import cost_has_x, cost_item, only_mana_ability_cost, parse_cost
from .production import (add_clause, _among_you_control, amount_phrase, _combination_units, _combinations,
                         _for_each_counter, _graveyard_cards, _one_color_word, _or_chosen_color, produce,
                         _self_power, _variable_produce)
from .line_context import LineContext, LineResult, _rider_or_fail, unsupported
from .static_sentences import (_IN_ADDITION, _in_addition, activate_as_haste, _blocker_filter, _Both,
                               choose_as_enters, combat_static, _combat_subject, counter_replacement, enters_with,
                               line_combat, mana_replacement, must_target, player_keyword, player_subtype, _times,
                               token_replacement)
from .effects import (clause, clause_conjure, clause_counter, clause_counters, clause_damage, clause_destroy,
                      clause_draw, clause_exile, clause_fight, clause_gain_life, clause_look_hand,
                      clause_player_draws, clause_player_life, clause_pump, clause_return, clause_return_to_hand,
                      clause_skip_untap, clause_tap, clause_tokens, clause_until_eot, CLAUSES, effect_sentence,
                      effect_text, _player_ref, _spell_filter, _to_owners_hand, _TOKEN_TYPES)
from .spend_restrictions import (source_phrase, SOURCE_TYPE_WORDS, spell_phrase, _spell_qualifiers, SPELL_TYPE_WORDS,
                                 _SPEND_ADJECTIVES, _spend_adjectives, _spend_and_rider, _spend_filters,
                                 _spend_nouns, spend_restriction, spend_sentence, _UNCOUNTERABLE)
from .activation_conditions import _activation_if, activation_restriction, _controlled
from .trigger_events import _trigger_event

__all__ = [
    "Ability", "ability_kind_of_line", "ActivatedAbility",
    "ActivationCondition", "ANY_TARGET", "ATTACHED", "CARD_TYPES", "CONTROLLER", "Cost", "Count",
    "CounterReplacement", "Effect", "Enchant", "EntersWith", "Filter", "Keyword", "ManaAbility", "ManaReplacement",
    "Produce", "Ref", "Selector", "SELF", "SpendRestriction", "Static", "T", "TargetSpec", "TokenReplacement",
    "Trigger", "TriggeredAbility", "TriggeredManaAbility", "Unsupported", "COLORS", "Mana", "ManaCost",
    "ManaSyntaxError", "parse_symbol", "SUBTYPES", "detokenize", "NUMBER_WORDS", "template", "Token",
    "ABILITY_WORDS", "BASIC_PLURALS", "BASIC_TYPES", "COLOR_WORDS", "_GRAMMAR_WORDS", "GRANTABLE_KEYWORDS",
    "_IRREGULAR_PLURALS", "KEYWORD_NAMES", "LAND_SUBTYPES", "SIMPLE_KEYWORDS", "singular", "STRIKE_WORDS",
    "TYPE_PLURALS", "TYPE_WORDS", "Cursor", "find_top", "mentions_target", "NoMatch", "sentences", "split_top",
    "strip_ability_word", "color_word", "counter_kind", "_counter_word", "is_subtype", "mana_amount", "mana_cost",
    "mana_run", "number", "pt", "RULES_COUNTERS", "subtype_word", "Desc", "desc", "_nonbasic_land", "_noun",
    "selector_phrase", "SELF_SELECTOR", "to_filter", "to_selector", "amount", "keyword_list", "object_ref", "Scope",
    "trigger_scope", "check_event_refs",
    "target_phrase", "cost_has_x", "cost_item", "only_mana_ability_cost", "parse_cost", "add_clause",
    "_among_you_control", "amount_phrase", "_combination_units", "_combinations", "_for_each_counter",
    "_graveyard_cards", "_one_color_word", "_or_chosen_color", "produce", "_self_power", "_variable_produce",
    "LineContext", "LineResult", "_rider_or_fail", "unsupported", "activate_as_haste", "_blocker_filter", "_Both",
    "choose_as_enters", "combat_static", "_combat_subject", "counter_replacement", "enters_with", "line_combat",
    "_IN_ADDITION", "_in_addition", "mana_replacement", "must_target", "player_keyword", "player_subtype", "_times",
    "token_replacement", "clause",
    "clause_conjure", "clause_counter", "clause_counters", "clause_damage", "clause_destroy", "clause_draw",
    "clause_exile", "clause_fight", "clause_gain_life", "clause_look_hand", "clause_player_draws",
    "clause_player_life", "clause_pump", "clause_return", "clause_return_to_hand", "clause_skip_untap",
    "clause_tap", "clause_tokens", "clause_until_eot", "CLAUSES", "effect_sentence", "effect_text", "_player_ref",
    "_spell_filter", "_to_owners_hand", "_TOKEN_TYPES", "source_phrase", "SOURCE_TYPE_WORDS", "spell_phrase",
    "_spell_qualifiers", "SPELL_TYPE_WORDS", "_SPEND_ADJECTIVES", "_spend_adjectives", "_spend_and_rider",
    "_spend_filters", "_spend_nouns", "spend_restriction", "spend_sentence", "_UNCOUNTERABLE", "_activation_if",
    "activation_restriction", "_controlled", "_trigger_event",
]
