"""Every key and cost string the upstream data files use (the notation must accept them all)."""

UPSTREAM_KEYS = [
    "2〜10",
    "A",
    "Joker",
    "J〜K",
    "A〜K",
    "Q",
    "♠A〜10",
    "♡A〜K",
    "♠2〜10",
    "♠A〜10 を 2枚",
    "♡A〜K と ♢A〜K",
    "A と J",
    "同じスートの A と J",
    "同じスートのA,10〜K を 5枚",
    "同じスートを2枚",
    "同じスート2枚",
    "同じ数字を２枚",
    "同じスートを2枚以上",
    "全て(裏向き)",
    "♠J と ♡2〜10",
    "♠K と ♣K",
    "♠A",
    "レアカード1枚",
]
UPSTREAM_COSTS = ["B", "BB", "BBD", "BBL", "BD", "BDD", "BL", "C", "D", "DD", "L", "S", "SS"]
